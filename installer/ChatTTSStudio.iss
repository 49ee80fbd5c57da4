; Inno Setup 6 script for ChatTTS Studio.
; Build the PyInstaller folder first (dist\ChatTTSStudio), then:
;   iscc /DAppVersion=VERSION /DFlavour=cpu installer\ChatTTSStudio.iss
; VERSION is app/__init__.py's __version__ (python -c "import app; print(app.__version__)"),
; the program's one version (docs/releasing.md); the workflow and the Wine rehearsal pass it.
; Flavour "cuda" makes a larger installer split into disk slices (DiskSpanning).
; Signing (optional): define SignTool as the name of a sign tool given to ISCC with /S, e.g.
;   iscc /DSignTool=studiosign "/Sstudiosign=signtool.exe sign /fd SHA256 /tr URL /td SHA256 $f" ...
; (.github/workflows/windows.yml does this when a certificate secret exists).

;
; Pinned to Inno Setup 6.4.x: Languages\ChineseSimplified.isl is the 6.4 translation (6.5 added
; messages; another version warns and shows some of them in English). The workflow and
; installer/wine-rehearsal.sh use 6.4.1 (npm package innosetup@6.4.1).
#if Ver < EncodeVer(6, 4, 0) || Ver >= EncodeVer(6, 5, 0)
  #error This script and Languages\ChineseSimplified.isl are for Inno Setup 6.4.x
#endif

#ifndef AppVersion
  #error Pass the version of app/__init__.py: iscc /DAppVersion=VERSION (see the top of this file)
#endif
#ifndef Flavour
  #define Flavour "cpu"
#endif
#ifndef SourceDir
  #define SourceDir "..\dist\ChatTTSStudio"
#endif

[Setup]
AppId={{6F0C2B7E-4E0B-4C38-9C3A-6B2F0D6C7A11}
AppName=ChatTTS Studio
AppVersion={#AppVersion}
AppVerName=ChatTTS Studio {#AppVersion}
AppPublisher=ChatTTS Studio
DefaultDirName={autopf}\ChatTTS Studio
DefaultGroupName=ChatTTS Studio
UninstallDisplayIcon={app}\ChatTTSStudio.exe
SetupIconFile=..\resources\icons\app.ico
OutputDir=..\dist\installer
OutputBaseFilename=ChatTTSStudio-{#AppVersion}-{#Flavour}-setup
Compression=lzma2/normal
SolidCompression=no
; Windows 10 or later: Python 3.11 needs 8.1, Qt 6 needs 10.
MinVersion=10.0
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
; Per-user by default (no administrator needed); the dialog offers "all users".
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=commandline dialog
WizardStyle=modern
CloseApplications=yes
#ifdef SignTool
SignTool={#SignTool}
SignedUninstaller=yes
#endif
#if Flavour == "cuda"
; The CUDA flavour is several GB: split it into setup.exe plus .bin slices, each under the
; 2 GiB limit of a release asset. An explicit size: since Inno Setup 6.5 "max" means unlimited.
DiskSpanning=yes
DiskSliceSize=2000000000
#endif

[Languages]
Name: "en"; MessagesFile: "compiler:Default.isl"
; Shipped with the script (relative to it): ChineseSimplified.isl is an unofficial translation
; in every Inno Setup 6.x, so "compiler:Languages\..." does not exist on a stock install.
Name: "zh"; MessagesFile: "Languages\ChineseSimplified.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[InstallDelete]
; An upgrade removes the previous program files (never the user's data or models).
Type: filesandordirs; Name: "{app}\_internal"

[Files]
Source: "{#SourceDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{group}\ChatTTS Studio"; Filename: "{app}\ChatTTSStudio.exe"
Name: "{group}\{cm:UninstallProgram,ChatTTS Studio}"; Filename: "{uninstallexe}"
Name: "{autodesktop}\ChatTTS Studio"; Filename: "{app}\ChatTTSStudio.exe"; Tasks: desktopicon

[Run]
Filename: "{app}\ChatTTSStudio.exe"; Description: "{cm:LaunchProgram,ChatTTS Studio}"; Flags: nowait postinstall skipifsilent

[Code]
// Uninstall offers to remove settings, history, voices and downloaded models
// (%LOCALAPPDATA%\ChatTTS Studio); silent uninstalls keep them.
procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
var
  DataDir: String;
begin
  if CurUninstallStep = usPostUninstall then
  begin
    DataDir := ExpandConstant('{localappdata}\ChatTTS Studio');
    if DirExists(DataDir) and not UninstallSilent() then
      if MsgBox('Also delete your settings, history, saved voices and downloaded models?' + #13#10 + DataDir,
                mbConfirmation, MB_YESNO or MB_DEFBUTTON2) = IDYES then
        DelTree(DataDir, True, True, True);
  end;
end;
