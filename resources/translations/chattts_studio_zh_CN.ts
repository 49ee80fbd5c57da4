<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AnywhereDialog</name>
    <message>
        <location filename="../../app/ui/anywhere_dialog.py" line="85"/>
        <source>Press a combination with Ctrl, Alt or the Windows key, such as Ctrl+Alt+R.</source>
        <translation>请按一个带 Ctrl、Alt 或 Windows 键的组合键，例如 Ctrl+Alt+R。</translation>
    </message>
    <message>
        <location filename="../../app/ui/anywhere_dialog.py" line="107"/>
        <source>Reading from anywhere</source>
        <translation>随处朗读</translation>
    </message>
    <message>
        <location filename="../../app/ui/anywhere_dialog.py" line="108"/>
        <source>Show an icon in the system tray (Play clipboard, Stop)</source>
        <translation>在系统托盘显示图标（朗读剪贴板、停止）</translation>
    </message>
    <message>
        <location filename="../../app/ui/anywhere_dialog.py" line="109"/>
        <source>This desktop has no system tray, so there is no icon.</source>
        <translation>此桌面没有系统托盘，因此不显示图标。</translation>
    </message>
    <message>
        <location filename="../../app/ui/anywhere_dialog.py" line="110"/>
        <source>Closing the window:</source>
        <translation>关闭窗口时：</translation>
    </message>
    <message>
        <location filename="../../app/ui/anywhere_dialog.py" line="113"/>
        <source>Ask each time</source>
        <translation>每次询问</translation>
    </message>
    <message>
        <location filename="../../app/ui/anywhere_dialog.py" line="114"/>
        <source>Keep running in the tray</source>
        <translation>在托盘中继续运行</translation>
    </message>
    <message>
        <location filename="../../app/ui/anywhere_dialog.py" line="115"/>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../../app/ui/anywhere_dialog.py" line="119"/>
        <source>Show a small player while reading from the tray or the hotkey</source>
        <translation>从托盘或快捷键朗读时显示小播放器</translation>
    </message>
    <message>
        <location filename="../../app/ui/anywhere_dialog.py" line="120"/>
        <source>A global hotkey reads the clipboard aloud from any program</source>
        <translation>全局快捷键：在任何程序中朗读剪贴板</translation>
    </message>
    <message>
        <location filename="../../app/ui/anywhere_dialog.py" line="121"/>
        <source>Hotkey:</source>
        <translation>快捷键：</translation>
    </message>
    <message>
        <location filename="../../app/ui/anywhere_dialog.py" line="123"/>
        <source>The hotkey reads the selected text (copied, then your clipboard is put back)</source>
        <translation>快捷键朗读选中的文字（先复制，再恢复你的剪贴板）</translation>
    </message>
</context>
<context>
    <name>AudioBanner</name>
    <message>
        <location filename="../../app/ui/banners.py" line="133"/>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>ClipboardReader</name>
    <message>
        <location filename="../../app/ui/clipboard_reader.py" line="95"/>
        <source>The clipboard holds no text to read.</source>
        <translation>剪贴板中没有可朗读的文字。</translation>
    </message>
    <message>
        <location filename="../../app/ui/clipboard_reader.py" line="104"/>
        <source>The model is not loaded yet.</source>
        <translation>模型尚未加载。</translation>
    </message>
    <message>
        <location filename="../../app/ui/clipboard_reader.py" line="122"/>
        <source>The selection could not be copied: %1</source>
        <translation>无法复制选中的文字：%1</translation>
    </message>
</context>
<context>
    <name>DiagnosticsPage</name>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="52"/>
        <source>Checking this computer</source>
        <translation>正在检查这台电脑</translation>
    </message>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="53"/>
        <source>Problems are listed with the exact steps to fix them.</source>
        <translation>发现的问题都会附上具体的解决步骤。</translation>
    </message>
</context>
<context>
    <name>DoctorBanner</name>
    <message>
        <location filename="../../app/ui/banners.py" line="112"/>
        <source>Open diagnostics</source>
        <translation>打开诊断</translation>
    </message>
</context>
<context>
    <name>DoctorDialog</name>
    <message>
        <location filename="../../app/ui/doctor_panel.py" line="225"/>
        <source>Diagnostics</source>
        <translation>诊断</translation>
    </message>
</context>
<context>
    <name>DoctorPanel</name>
    <message>
        <location filename="../../app/ui/doctor_panel.py" line="92"/>
        <source>Checking this computer...</source>
        <translation>正在检查这台电脑...</translation>
    </message>
    <message>
        <location filename="../../app/ui/doctor_panel.py" line="105"/>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <location filename="../../app/ui/doctor_panel.py" line="105"/>
        <source>Fix</source>
        <translation>解决方法</translation>
    </message>
    <message>
        <location filename="../../app/ui/doctor_panel.py" line="152"/>
        <source>Not checked yet.</source>
        <translation>尚未检查。</translation>
    </message>
    <message>
        <location filename="../../app/ui/doctor_panel.py" line="160"/>
        <source>%1 problem(s), %2 warning(s). Recommended device: %3.</source>
        <translation>%1 个问题，%2 个警告。推荐设备：%3。</translation>
    </message>
    <message>
        <location filename="../../app/ui/doctor_panel.py" line="180"/>
        <location filename="../../app/ui/doctor_panel.py" line="192"/>
        <source>Save report</source>
        <translation>保存报告</translation>
    </message>
    <message>
        <location filename="../../app/ui/doctor_panel.py" line="180"/>
        <source>Text files (*.txt)</source>
        <translation>文本文件 (*.txt)</translation>
    </message>
    <message>
        <location filename="../../app/ui/doctor_panel.py" line="193"/>
        <source>The report could not be saved: %1</source>
        <translation>无法保存报告：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/doctor_panel.py" line="200"/>
        <source>Check</source>
        <translation>检查项</translation>
    </message>
    <message>
        <location filename="../../app/ui/doctor_panel.py" line="200"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../app/ui/doctor_panel.py" line="201"/>
        <source>Re-run</source>
        <translation>重新检查</translation>
    </message>
    <message>
        <location filename="../../app/ui/doctor_panel.py" line="202"/>
        <source>Copy report</source>
        <translation>复制报告</translation>
    </message>
    <message>
        <location filename="../../app/ui/doctor_panel.py" line="203"/>
        <source>Save report...</source>
        <translation>保存报告...</translation>
    </message>
</context>
<context>
    <name>DonePage</name>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="209"/>
        <source>All set</source>
        <translation>一切就绪</translation>
    </message>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="212"/>
        <source>You can open this guide again from Help &gt; First-run wizard, and the diagnostics from Help &gt; Diagnostics.</source>
        <translation>之后可以从“帮助 &gt; 首次运行向导”再次打开本向导，从“帮助 &gt; 诊断”打开诊断。</translation>
    </message>
</context>
<context>
    <name>DownloadDialog</name>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="164"/>
        <source>Copying and verifying %1...</source>
        <translation>正在复制并校验 %1...</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="171"/>
        <source>Cancelling...</source>
        <translation>正在取消...</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="182"/>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="183"/>
        <source>already here, verified</source>
        <translation>已存在，已校验</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="184"/>
        <source>downloading</source>
        <translation>下载中</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="185"/>
        <source>checking sha256</source>
        <translation>正在校验 sha256</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="186"/>
        <location filename="../../app/ui/download_dialog.py" line="216"/>
        <source>verified</source>
        <translation>已校验</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="187"/>
        <location filename="../../app/ui/download_dialog.py" line="218"/>
        <source>checksum mismatch</source>
        <translation>校验不一致</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="203"/>
        <source>%1 of %2 at %3/s%4</source>
        <translation>%1 / %2，速度 %3/秒%4</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="207"/>
        <source>, about %1 s left</source>
        <translation>，约剩 %1 秒</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="220"/>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="226"/>
        <source>All %1 files are present and match their sha256 checksums.</source>
        <translation>全部 %1 个文件都已就位，且与 sha256 校验值一致。</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="233"/>
        <source>Some files are missing or damaged; start again to fetch them.</source>
        <translation>有文件缺失或损坏；请再次开始以重新获取。</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="245"/>
        <source>not downloaded</source>
        <translation>未下载</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="251"/>
        <source>stopped, resumes next time</source>
        <translation>已停止，下次从中断处继续</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="261"/>
        <source>Get the ChatTTS model</source>
        <translation>获取 ChatTTS 模型</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="266"/>
        <source>Hugging Face</source>
        <translation>Hugging Face</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="267"/>
        <source>Hugging Face mirror</source>
        <translation>Hugging Face 镜像</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="268"/>
        <source>ModelScope (mainland China)</source>
        <translation>ModelScope（中国大陆）</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="269"/>
        <source>Custom address</source>
        <translation>自定义地址</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="275"/>
        <source>https://...</source>
        <translation>https://...</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="277"/>
        <source>Into %1 (about %2 GB). Interrupted downloads resume where they stopped.</source>
        <translation>下载到 %1（约 %2 GB）。中断的下载会从中断处继续。</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="281"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="281"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="281"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="282"/>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="283"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="284"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="117"/>
        <source>%1 did not answer when this computer was checked: choose ModelScope or a mirror, or Download to try it again.</source>
        <translation>检查这台电脑时 %1 没有响应：请选择 ModelScope 或镜像，或点“下载”再试一次。</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="153"/>
        <source>Trying %1 again; it did not answer when this computer was checked, so this may fail after a while. ModelScope or a mirror may work instead.</source>
        <translation>正在再次尝试 %1；检查这台电脑时它没有响应，所以可能在一段时间后失败。改用 ModelScope 或镜像也许可行。</translation>
    </message>
    <message>
        <location filename="../../app/ui/download_dialog.py" line="157"/>
        <source>Contacting the download host...</source>
        <translation>正在连接下载服务器……</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <location filename="../../app/ui/narration/export_dialog.py" line="132"/>
        <source>Export the narration</source>
        <translation>导出朗读</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/export_dialog.py" line="134"/>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/export_dialog.py" line="135"/>
        <source>Subtitles</source>
        <translation>字幕</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/export_dialog.py" line="136"/>
        <source>Target loudness</source>
        <translation>目标响度</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/export_dialog.py" line="137"/>
        <source>Pause between sentences</source>
        <translation>句间停顿</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/export_dialog.py" line="138"/>
        <source>Pause between chapters</source>
        <translation>章节间停顿</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/export_dialog.py" line="144"/>
        <source>One file with chapter marks</source>
        <translation>单个文件（带章节标记）</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/export_dialog.py" line="145"/>
        <source>One file per chapter</source>
        <translation>每章一个文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/export_dialog.py" line="146"/>
        <source>No subtitles</source>
        <translation>无字幕</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/export_dialog.py" line="147"/>
        <source>Normalize loudness (EBU R128, peaks under -1 dBTP)</source>
        <translation>响度标准化（EBU R128，峰值低于 -1 dBTP）</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/export_dialog.py" line="141"/>
        <source>LUFS</source>
        <translation>LUFS</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/export_dialog.py" line="143"/>
        <source>s</source>
        <comment>seconds</comment>
        <translation>秒</translation>
    </message>
</context>
<context>
    <name>FirstRunWizard</name>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="241"/>
        <source>ChatTTS Studio setup</source>
        <translation>ChatTTS Studio 设置向导</translation>
    </message>
</context>
<context>
    <name>GlobalHotkey</name>
    <message>
        <location filename="../../app/ui/hotkey.py" line="120"/>
        <source>%1 is not a key combination with Ctrl, Alt or the Windows key.</source>
        <translation>%1 不是带 Ctrl、Alt 或 Windows 键的组合键。</translation>
    </message>
    <message>
        <location filename="../../app/ui/hotkey.py" line="138"/>
        <source>The global hotkey could not be registered: %1</source>
        <translation>无法注册全局快捷键：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/hotkey.py" line="143"/>
        <source>the listener stopped at once</source>
        <translation>监听程序启动后立即停止</translation>
    </message>
</context>
<context>
    <name>HistoryPanel</name>
    <message>
        <location filename="../../app/ui/history_panel.py" line="69"/>
        <source>%1 s</source>
        <comment>seconds</comment>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location filename="../../app/ui/history_panel.py" line="195"/>
        <source>Export WAV</source>
        <translation>导出 WAV</translation>
    </message>
    <message>
        <location filename="../../app/ui/history_panel.py" line="197"/>
        <source>WAV audio (*.wav)</source>
        <translation>WAV 音频 (*.wav)</translation>
    </message>
    <message>
        <location filename="../../app/ui/history_panel.py" line="208"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location filename="../../app/ui/history_panel.py" line="211"/>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <location filename="../../app/ui/history_panel.py" line="244"/>
        <source>This take may not be usable:</source>
        <translation>这段录音可能不能用：</translation>
    </message>
    <message>
        <location filename="../../app/ui/history_panel.py" line="281"/>
        <source>Replay</source>
        <translation>重播</translation>
    </message>
    <message>
        <location filename="../../app/ui/history_panel.py" line="282"/>
        <source>Export...</source>
        <translation>导出...</translation>
    </message>
    <message>
        <location filename="../../app/ui/history_panel.py" line="283"/>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <location filename="../../app/ui/history_panel.py" line="284"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../app/ui/history_panel.py" line="285"/>
        <source>Try another take</source>
        <translation>再试一次</translation>
    </message>
    <message>
        <location filename="../../app/ui/history_panel.py" line="287"/>
        <source>Make this result again with the next seed, as a new entry; this one stays.</source>
        <translation>用下一个种子重新生成这条结果，作为新的一条；这一条会保留。</translation>
    </message>
    <message>
        <location filename="../../app/ui/history_panel.py" line="146"/>
        <source>Stop the current speech first, then replay.</source>
        <translation>请先停止当前的朗读，再重播。</translation>
    </message>
    <message>
        <location filename="../../app/ui/history_panel.py" line="152"/>
        <source>The audio of this result could not be read: %1</source>
        <translation>无法读取这条结果的音频：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/history_panel.py" line="161"/>
        <source>Replaying: %1</source>
        <translation>正在重播：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/history_panel.py" line="171"/>
        <source>Delete result</source>
        <translation>删除结果</translation>
    </message>
    <message>
        <location filename="../../app/ui/history_panel.py" line="172"/>
        <source>Delete this result and its audio? This cannot be undone.

%1</source>
        <translation>删除这条结果及其音频？此操作无法撤销。

%1</translation>
    </message>
</context>
<context>
    <name>LibraryBanner</name>
    <message>
        <location filename="../../app/ui/banners.py" line="163"/>
        <source>%1 could not be read; it was kept as it is and the rest was loaded.</source>
        <translation>无法读取 %1；文件已原样保留，其余内容已载入。</translation>
    </message>
    <message>
        <location filename="../../app/ui/banners.py" line="168"/>
        <source>%1: a record was skipped because its field “%2” is not valid; the rest was loaded.</source>
        <translation>%1：字段“%2”无效，已跳过这条记录；其余内容已载入。</translation>
    </message>
    <message>
        <location filename="../../app/ui/banners.py" line="177"/>
        <source>Your library was damaged: it was set aside as %1 and the backup %2 was restored; results since that backup may be missing.</source>
        <translation>你的资料库已损坏：已另存为 %1，并恢复了备份 %2；该备份之后的结果可能缺失。</translation>
    </message>
    <message>
        <location filename="../../app/ui/banners.py" line="185"/>
        <source>Your library was damaged and no backup could be used: it was set aside as %1 and a new library was started.</source>
        <translation>你的资料库已损坏且没有可用的备份：已另存为 %1，并新建了一个资料库。</translation>
    </message>
    <message>
        <location filename="../../app/ui/banners.py" line="209"/>
        <source>Imported %1 into the library; the original is kept as %2.</source>
        <translation>已将 %1 导入资料库；原文件保留为 %2。</translation>
    </message>
    <message>
        <location filename="../../app/ui/banners.py" line="219"/>
        <source>Your history and voices cannot be saved this session: %1</source>
        <translation>本次运行无法保存历史记录和音色：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/banners.py" line="230"/>
        <source>... and %1 more (see the log).</source>
        <translation>……另有 %1 条（请查看日志）。</translation>
    </message>
    <message>
        <location filename="../../app/ui/banners.py" line="234"/>
        <location filename="../../app/ui/banners.py" line="242"/>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../app/ui/banners.py" line="240"/>
        <source>This result could not be saved to the history: %1</source>
        <translation>此结果未能保存到历史记录：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/banners.py" line="191"/>
        <source>Your library was empty although its backups hold your data: the empty file was set aside as %1 and the backup %2 was restored; results since that backup may be missing.</source>
        <translation>你的资料库是空的，而它的备份里还有你的数据：空文件已另存为 %1，并已恢复备份 %2；该备份之后的结果可能缺失。</translation>
    </message>
    <message>
        <location filename="../../app/ui/banners.py" line="201"/>
        <source>Your library %1 was missing: the backup %2 was restored; results since that backup may be missing.</source>
        <translation>你的资料库 %1 不见了：已恢复备份 %2；该备份之后的结果可能缺失。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../app/ui/main_window.py" line="190"/>
        <source>Checking this computer...</source>
        <translation>正在检查这台电脑...</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_window.py" line="267"/>
        <source>Hello! This is how I sound.</source>
        <translation>你好！我的声音是这样的。</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_window.py" line="324"/>
        <source>The model is not loaded yet.</source>
        <translation>模型尚未加载。</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_window.py" line="339"/>
        <source> (test model: noise, not speech)</source>
        <translation>（测试模型：噪声，不是语音）</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/ui/main_window.py" line="341"/>
        <source>%n warning(s), below</source>
        <translation>
            <numerusform>%n 条警告，见下方</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/ui/main_window.py" line="344"/>
        <source>%1 s of audio in %2 s on %3</source>
        <translation>%1 秒音频，用时 %2 秒（%3）</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_window.py" line="355"/>
        <source>Synthesis failed</source>
        <translation>合成失败</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_window.py" line="364"/>
        <source>ChatTTS Studio</source>
        <translation>ChatTTS Studio</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_window.py" line="369"/>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_window.py" line="369"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_window.py" line="369"/>
        <source>Export WAV...</source>
        <translation>导出 WAV...</translation>
    </message>
</context>
<context>
    <name>Menus</name>
    <message>
        <location filename="../../app/ui/main_menu.py" line="255"/>
        <source>No output device found</source>
        <translation>没有找到输出设备</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="262"/>
        <source>System default (%1)</source>
        <translation>系统默认（%1）</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="287"/>
        <source>About ChatTTS Studio</source>
        <translation>关于 ChatTTS Studio</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="288"/>
        <source>&lt;b&gt;ChatTTS Studio %1&lt;/b&gt;&lt;br&gt;Text to speech on your own computer with the ChatTTS model.&lt;br&gt;Logs: %2</source>
        <translation>&lt;b&gt;ChatTTS Studio %1&lt;/b&gt;&lt;br&gt;使用 ChatTTS 模型在你自己的电脑上把文字转成语音。&lt;br&gt;日志：%2</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="83"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="26"/>
        <source>Precision: automatic (int8 on a CPU, bf16 or fp16 on a GPU)</source>
        <translation>精度：自动（CPU 上为 int8，GPU 上为 bf16 或 fp16）</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="29"/>
        <source>Precision: int8, several times faster on a CPU, close to fp32</source>
        <translation>精度：int8，在 CPU 上快数倍，结果接近 fp32</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="33"/>
        <source>Precision: fp32 (exact, slowest on a CPU)</source>
        <translation>精度：fp32（精确，在 CPU 上最慢）</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="37"/>
        <source>Speed 0.75x</source>
        <translation>速度 0.75 倍</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="38"/>
        <source>Speed 1x (normal)</source>
        <translation>速度 1 倍（正常）</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="39"/>
        <source>Speed 1.25x</source>
        <translation>速度 1.25 倍</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="40"/>
        <source>Speed 1.5x</source>
        <translation>速度 1.5 倍</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="41"/>
        <source>Speed 1.75x</source>
        <translation>速度 1.75 倍</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="42"/>
        <source>Speed 2x</source>
        <translation>速度 2 倍</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="87"/>
        <source>&amp;Open text...</source>
        <translation>打开文本(&amp;O)...</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="93"/>
        <source>&amp;Export WAV...</source>
        <translation>导出 WAV(&amp;E)...</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="100"/>
        <source>New &amp;narration from file...</source>
        <translation>从文件新建朗读(&amp;N)...</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="105"/>
        <source>Open narration pro&amp;ject...</source>
        <translation>打开朗读项目(&amp;J)...</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="111"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="119"/>
        <source>&amp;Text</source>
        <translation>文本(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="123"/>
        <source>&amp;Preview what will be spoken</source>
        <translation>预览将要朗读的内容(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="128"/>
        <source>P&amp;ronunciations...</source>
        <translation>读音词典(&amp;R)...</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="134"/>
        <source>Read the &amp;clipboard aloud</source>
        <translation>朗读剪贴板(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="139"/>
        <source>Reading from &amp;anywhere (tray, hotkey)...</source>
        <translation>随处朗读（托盘、快捷键）(&amp;A)...</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="146"/>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="150"/>
        <source>&amp;Download the model...</source>
        <translation>下载模型(&amp;D)...</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="155"/>
        <source>&amp;Import a model folder...</source>
        <translation>导入模型文件夹(&amp;I)...</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="160"/>
        <source>Choose model &amp;folder...</source>
        <translation>选择模型文件夹(&amp;F)...</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="21"/>
        <source>Device: automatic</source>
        <translation>设备：自动</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="22"/>
        <source>Device: CPU</source>
        <translation>设备：CPU</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="23"/>
        <source>Device: NVIDIA GPU (CUDA)</source>
        <translation>设备：NVIDIA 显卡 (CUDA)</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="32"/>
        <source>Precision: bf16 (experimental)</source>
        <translation>精度：bf16（实验性）</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="180"/>
        <source>&amp;Audio</source>
        <translation>音频(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="216"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="45"/>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="172"/>
        <source>Speech &amp;server (OpenAI-compatible API)...</source>
        <translation>语音服务器（兼容 OpenAI 的接口）(&amp;S)...</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="185"/>
        <source>&amp;Playback</source>
        <translation>播放(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="189"/>
        <source>&amp;Pause / resume</source>
        <translation>暂停 / 继续(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="195"/>
        <source>&amp;Next sentence</source>
        <translation>下一句(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="201"/>
        <source>P&amp;revious sentence</source>
        <translation>上一句(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="221"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="225"/>
        <source>&amp;Diagnostics...</source>
        <translation>诊断(&amp;D)...</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="230"/>
        <source>&amp;First-run wizard...</source>
        <translation>首次运行向导(&amp;F)...</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="235"/>
        <source>&amp;Keyboard shortcuts...</source>
        <translation>键盘快捷键(&amp;K)...</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="240"/>
        <source>Open the &amp;log folder</source>
        <translation>打开日志文件夹(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../app/ui/main_menu.py" line="243"/>
        <source>&amp;About</source>
        <translation>关于(&amp;A)</translation>
    </message>
</context>
<context>
    <name>MiniPlayer</name>
    <message>
        <location filename="../../app/ui/mini_player.py" line="86"/>
        <location filename="../../app/ui/mini_player.py" line="112"/>
        <source>Getting ready to read...</source>
        <translation>正在准备朗读...</translation>
    </message>
    <message>
        <location filename="../../app/ui/mini_player.py" line="96"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <location filename="../../app/ui/mini_player.py" line="96"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../../app/ui/mini_player.py" line="107"/>
        <source>ChatTTS Studio</source>
        <translation>ChatTTS Studio</translation>
    </message>
    <message>
        <location filename="../../app/ui/mini_player.py" line="109"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../app/ui/mini_player.py" line="110"/>
        <source>Next sentence</source>
        <translation>下一句</translation>
    </message>
</context>
<context>
    <name>ModelBanner</name>
    <message>
        <location filename="../../app/ui/banners.py" line="63"/>
        <source>Choose folder...</source>
        <translation>选择文件夹...</translation>
    </message>
    <message>
        <location filename="../../app/ui/banners.py" line="63"/>
        <source>Download...</source>
        <translation>下载...</translation>
    </message>
    <message>
        <location filename="../../app/ui/banners.py" line="73"/>
        <source>No ChatTTS model in %1. Download it, or choose a folder that already holds the model&apos;s asset/ folder.</source>
        <translation>在 %1 中没有 ChatTTS 模型。请下载，或选择一个已包含模型 asset/ 文件夹的目录。</translation>
    </message>
    <message>
        <location filename="../../app/ui/banners.py" line="85"/>
        <source>This is a random-weight test model: it makes noise, not speech. Choose the official ChatTTS model folder to hear real speech.</source>
        <translation>这是随机权重的测试模型：它只会产生噪声，不是语音。请选择官方 ChatTTS 模型文件夹以听到真实语音。</translation>
    </message>
    <message>
        <location filename="../../app/ui/banners.py" line="37"/>
        <source>the NVIDIA GPU</source>
        <translation>NVIDIA GPU</translation>
    </message>
    <message>
        <location filename="../../app/ui/banners.py" line="39"/>
        <source>the CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <location filename="../../app/ui/banners.py" line="53"/>
        <source>the device that worked</source>
        <translation>之前可用的设备</translation>
    </message>
    <message>
        <location filename="../../app/ui/banners.py" line="45"/>
        <source>The model runs on %1: your saved device, %2, cannot be used.</source>
        <translation>模型在 %1 上运行：你保存的设备 %2 无法使用。</translation>
    </message>
    <message>
        <location filename="../../app/ui/banners.py" line="48"/>
        <source>The model stays on %1: %2 cannot be used, and it was not saved as your choice.</source>
        <translation>模型仍在 %1 上运行：%2 无法使用，也没有保存为你的选择。</translation>
    </message>
    <message>
        <location filename="../../app/ui/banners.py" line="68"/>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>ModelFolders</name>
    <message>
        <location filename="../../app/ui/model_folders.py" line="26"/>
        <source>Choose the ChatTTS model folder</source>
        <translation>选择 ChatTTS 模型文件夹</translation>
    </message>
    <message>
        <location filename="../../app/ui/model_folders.py" line="34"/>
        <source>Import a ChatTTS model folder</source>
        <translation>导入 ChatTTS 模型文件夹</translation>
    </message>
</context>
<context>
    <name>ModelPage</name>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="83"/>
        <source>Model ready: %1 in %2.</source>
        <translation>模型就绪：%1，位于 %2。</translation>
    </message>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="88"/>
        <source>The model could not be loaded: %1</source>
        <translation>无法加载模型：%1</translation>
    </message>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="91"/>
        <source>No ChatTTS model in %1. Download it, or choose a folder that already holds the model&apos;s asset/ folder.</source>
        <translation>在 %1 中没有 ChatTTS 模型。请下载，或选择一个已包含模型 asset/ 文件夹的目录。</translation>
    </message>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="95"/>
        <source>Loading the model from %1...</source>
        <translation>正在从 %1 加载模型...</translation>
    </message>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="99"/>
        <source>The model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="101"/>
        <source>ChatTTS needs its model files (about %1 GB) in one folder.</source>
        <translation>ChatTTS 需要把模型文件（约 %1 GB）放在同一个文件夹中。</translation>
    </message>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="105"/>
        <source>Choose folder...</source>
        <translation>选择文件夹...</translation>
    </message>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="106"/>
        <source>Download...</source>
        <translation>下载...</translation>
    </message>
</context>
<context>
    <name>NarrationController</name>
    <message>
        <location filename="../../app/ui/narration/controller.py" line="331"/>
        <source>Load a model first: narration is rendered by the model.</source>
        <translation>请先加载模型：朗读由模型生成。</translation>
    </message>
</context>
<context>
    <name>NarrationExport</name>
    <message>
        <location filename="../../app/ui/narration/exporting.py" line="18"/>
        <source>%1 audio (*.%2)</source>
        <translation>%1 音频 (*.%2)</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/exporting.py" line="24"/>
        <source>Export the narration</source>
        <translation>导出朗读</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/exporting.py" line="45"/>
        <source>Exporting...</source>
        <translation>正在导出...</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/exporting.py" line="56"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/exporting.py" line="63"/>
        <source>Exported %1 file(s): %2</source>
        <translation>已导出 %1 个文件：%2</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/exporting.py" line="72"/>
        <source>Exported, with warnings</source>
        <translation>已导出，但有警告</translation>
    </message>
</context>
<context>
    <name>NarrationLauncher</name>
    <message>
        <location filename="../../app/ui/narration/launcher.py" line="55"/>
        <source>New narration from a file</source>
        <translation>从文件新建朗读</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/launcher.py" line="57"/>
        <source>Books and scripts (*.txt *.md *.markdown *.epub *.srt *.vtt);;All files (*)</source>
        <translation>书籍和脚本 (*.txt *.md *.markdown *.epub *.srt *.vtt);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/launcher.py" line="64"/>
        <source>Save the narration project as</source>
        <translation>将朗读项目另存为</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/launcher.py" line="66"/>
        <source>Narration projects (*.ctsproj)</source>
        <translation>朗读项目 (*.ctsproj)</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/launcher.py" line="77"/>
        <source>Open a narration project</source>
        <translation>打开朗读项目</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/launcher.py" line="79"/>
        <source>Narration projects (*.ctsproj);;All files (*)</source>
        <translation>朗读项目 (*.ctsproj);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/launcher.py" line="90"/>
        <source>The narration could not be created</source>
        <translation>无法创建朗读</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/launcher.py" line="100"/>
        <source>The narration project could not be opened</source>
        <translation>无法打开朗读项目</translation>
    </message>
</context>
<context>
    <name>NarrationLayout</name>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="148"/>
        <source>Render</source>
        <translation>生成</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="149"/>
        <source>Render every sentence not yet rendered (Ctrl+R)</source>
        <translation>生成所有尚未生成的句子 (Ctrl+R)</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="151"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="151"/>
        <source>Stop rendering; finished sentences are kept</source>
        <translation>停止生成；已完成的句子会保留</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="153"/>
        <source>Play from here</source>
        <translation>从此处播放</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="154"/>
        <source>Play the chapter from the selected sentence</source>
        <translation>从所选句子开始播放本章</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="156"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="156"/>
        <source>Stop playing</source>
        <translation>停止播放</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="158"/>
        <source>New take</source>
        <translation>新版本</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="159"/>
        <source>Render the selected sentence again with a new seed</source>
        <translation>用新的种子重新生成所选句子</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="162"/>
        <source>Re-take flagged</source>
        <translation>重录被标记的句子</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="164"/>
        <source>Render again, each with its next seed, every sentence whose take the take check flagged (a warning sign in the Status column)</source>
        <translation>用各自的下一个种子重新生成所有被录音检查标记的句子（状态列中有警告标志）</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="168"/>
        <source>Edit text</source>
        <translation>编辑文本</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="168"/>
        <source>Change the selected sentence&apos;s text (F2)</source>
        <translation>修改所选句子的文本 (F2)</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="170"/>
        <source>Lock</source>
        <translation>锁定</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="172"/>
        <source>Lock or unlock the selected sentence: a locked sentence keeps its text and take until it is unlocked (Ctrl+L)</source>
        <translation>锁定或解锁所选句子：锁定的句子在解锁前保持其文本和所用版本不变 (Ctrl+L)</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="176"/>
        <source>Export...</source>
        <translation>导出...</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="176"/>
        <source>Write audio files and subtitles</source>
        <translation>写出音频文件和字幕</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="181"/>
        <source>Tries:</source>
        <translation>尝试次数：</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="183"/>
        <source>How many takes a sentence gets when the take check flags them; the best is kept (saved in the project)</source>
        <translation>句子被录音检查标记时最多生成几次，保留最好的一次（保存在项目中）</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window_layout.py" line="189"/>
        <source>Select a rendered sentence to see its waveform</source>
        <translation>选择一个已生成的句子以查看其波形</translation>
    </message>
</context>
<context>
    <name>NarrationWindow</name>
    <message>
        <location filename="../../app/ui/narration/window.py" line="109"/>
        <source>Chapter %1</source>
        <translation>第 %1 章</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window.py" line="134"/>
        <source>... and %1 more</source>
        <translation>……另有 %1 条</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window.py" line="139"/>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window.py" line="180"/>
        <source>Reading the audio...</source>
        <translation>正在读取音频...</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window.py" line="182"/>
        <source>Render the chapter to see its waveform</source>
        <translation>生成本章后即可查看其波形</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window.py" line="242"/>
        <source>Pause or resume playback</source>
        <translation>暂停或继续播放</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window.py" line="243"/>
        <source>Next sentence</source>
        <translation>下一句</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window.py" line="244"/>
        <source>Previous sentence</source>
        <translation>上一句</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window.py" line="262"/>
        <source>The main window is speaking; stop it first.</source>
        <translation>主窗口正在朗读；请先停止。</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window.py" line="280"/>
        <source>Nothing rendered to play from here yet.</source>
        <translation>从这里开始还没有已生成的音频可播放。</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window.py" line="330"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window.py" line="330"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window.py" line="334"/>
        <source>Rendering...</source>
        <translation>正在生成...</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window.py" line="356"/>
        <source>Render finished.</source>
        <translation>生成完成。</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window.py" line="357"/>
        <location filename="../../app/ui/narration/window.py" line="358"/>
        <source>Render cancelled.</source>
        <translation>已取消生成。</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window.py" line="362"/>
        <source>%1 sentence(s) failed; the table says why.</source>
        <translation>%1 个句子生成失败；原因见表格。</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window.py" line="367"/>
        <source>%1 sentence(s) flagged by the take check; the Status column says why.</source>
        <translation>%1 个句子被录音检查标记；原因见状态列。</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window.py" line="382"/>
        <source> (test model: noise, not speech)</source>
        <translation>（测试模型：噪声，不是语音）</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window.py" line="388"/>
        <source>A random-weight test model is loaded: what it renders here is noise, not speech. Choose the official ChatTTS model folder in the main window before rendering a book.</source>
        <translation>当前加载的是随机权重的测试模型：它在这里生成的是噪声，不是语音。生成书籍前，请在主窗口中选择官方 ChatTTS 模型文件夹。</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window.py" line="396"/>
        <source>No model is loaded: you can read and edit the project, and rendering starts once a model is loaded in the main window.</source>
        <translation>尚未加载模型：你可以查看和编辑项目，在主窗口加载模型后即可开始生成。</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/window.py" line="407"/>
        <source>Narration: %1</source>
        <translation>朗读：%1</translation>
    </message>
</context>
<context>
    <name>ParamsPanel</name>
    <message>
        <location filename="../../app/ui/params_panel.py" line="128"/>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location filename="../../app/ui/params_panel.py" line="127"/>
        <source>Speed (%1-%2)</source>
        <translation>语速 (%1-%2)</translation>
    </message>
    <message>
        <location filename="../../app/ui/params_panel.py" line="129"/>
        <source>Top-P</source>
        <translation>Top-P</translation>
    </message>
    <message>
        <location filename="../../app/ui/params_panel.py" line="130"/>
        <source>Top-K</source>
        <translation>Top-K</translation>
    </message>
    <message>
        <location filename="../../app/ui/params_panel.py" line="131"/>
        <source>Oral (%1-%2)</source>
        <translation>口语化 (%1-%2)</translation>
    </message>
    <message>
        <location filename="../../app/ui/params_panel.py" line="132"/>
        <source>Laugh (%1-%2)</source>
        <translation>笑声 (%1-%2)</translation>
    </message>
    <message>
        <location filename="../../app/ui/params_panel.py" line="133"/>
        <source>Breaks (%1-%2)</source>
        <translation>停顿 (%1-%2)</translation>
    </message>
    <message>
        <location filename="../../app/ui/params_panel.py" line="138"/>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <location filename="../../app/ui/params_panel.py" line="139"/>
        <source>Refine text first (natural pauses, slower)</source>
        <translation>先润色文本（停顿更自然，较慢）</translation>
    </message>
    <message>
        <location filename="../../app/ui/params_panel.py" line="140"/>
        <source>Keep the voice steady across sentences</source>
        <translation>各句之间保持同一音色</translation>
    </message>
</context>
<context>
    <name>PronunciationDialog</name>
    <message>
        <location filename="../../app/ui/pronunciation_dialog.py" line="85"/>
        <source>Pronunciations</source>
        <translation>读音词典</translation>
    </message>
    <message>
        <location filename="../../app/ui/pronunciation_dialog.py" line="88"/>
        <source>Each word on the left is spoken as written on the right, before anything else happens to the text (e.g. SQL -&gt; sequel, 重庆 -&gt; 虫庆).</source>
        <translation>左边的词会先按右边的写法朗读，然后才进行其他处理（例如 SQL -&gt; sequel，重庆 -&gt; 虫庆）。</translation>
    </message>
    <message>
        <location filename="../../app/ui/pronunciation_dialog.py" line="92"/>
        <source>Word</source>
        <translation>词语</translation>
    </message>
    <message>
        <location filename="../../app/ui/pronunciation_dialog.py" line="92"/>
        <source>Say it as</source>
        <translation>读作</translation>
    </message>
    <message>
        <location filename="../../app/ui/pronunciation_dialog.py" line="93"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location filename="../../app/ui/pronunciation_dialog.py" line="94"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
</context>
<context>
    <name>ReadingAnywhere</name>
    <message>
        <location filename="../../app/ui/anywhere.py" line="130"/>
        <source>Close ChatTTS Studio</source>
        <translation>关闭 ChatTTS Studio</translation>
    </message>
    <message>
        <location filename="../../app/ui/anywhere.py" line="133"/>
        <source>Keep ChatTTS Studio running in the tray, so the tray menu and the hotkey still read aloud?</source>
        <translation>让 ChatTTS Studio 在托盘中继续运行，以便托盘菜单和快捷键仍可朗读？</translation>
    </message>
    <message>
        <location filename="../../app/ui/anywhere.py" line="137"/>
        <source>Keep in the tray</source>
        <translation>保留在托盘</translation>
    </message>
    <message>
        <location filename="../../app/ui/anywhere.py" line="138"/>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../../app/ui/anywhere.py" line="139"/>
        <source>Don&apos;t ask again</source>
        <translation>不再询问</translation>
    </message>
</context>
<context>
    <name>RenderBar</name>
    <message>
        <location filename="../../app/ui/narration/render_bar.py" line="67"/>
        <source>Chapter</source>
        <translation>章节</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/render_bar.py" line="70"/>
        <source>Chapter %1</source>
        <translation>第 %1 章</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/render_bar.py" line="77"/>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/render_bar.py" line="79"/>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/render_bar.py" line="81"/>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/render_bar.py" line="89"/>
        <source>Estimating the time left...</source>
        <translation>正在估算剩余时间...</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/render_bar.py" line="91"/>
        <source>Less than a minute left</source>
        <translation>剩余不到一分钟</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/render_bar.py" line="94"/>
        <source>About %1 min left</source>
        <translation>约剩 %1 分钟</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/render_bar.py" line="95"/>
        <source>About %1 h left</source>
        <translation>约剩 %1 小时</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/render_bar.py" line="98"/>
        <source>Overall</source>
        <translation>总体</translation>
    </message>
</context>
<context>
    <name>RenderTargetBox</name>
    <message>
        <location filename="../../app/ui/narration/render_target.py" line="96"/>
        <source>With this window&apos;s model</source>
        <translation>使用本窗口的模型</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/render_target.py" line="97"/>
        <source>On local worker processes</source>
        <translation>在本机工作进程上</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/render_target.py" line="98"/>
        <source>On a Ray cluster</source>
        <translation>在 Ray 集群上</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/render_target.py" line="103"/>
        <source>Needs Ray: pip install &quot;chattts-studio[farm]&quot; (not in the Windows bundle)</source>
        <translation>需要 Ray：pip install &quot;chattts-studio[farm]&quot;（Windows 安装包不含）</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/render_target.py" line="109"/>
        <source>Where to render: local workers each load their own copy of the model (more memory, more speed on several GPUs or many cores)</source>
        <translation>在哪里渲染：每个本机工作进程各自加载一份模型（占用更多内存；在多块 GPU 或多核 CPU 上更快）</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/render_target.py" line="113"/>
        <source>Worker processes</source>
        <translation>工作进程数</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/render_target.py" line="114"/>
        <source>Ray address: auto, local or ray://HOST:PORT</source>
        <translation>Ray 地址：auto、local 或 ray://主机:端口</translation>
    </message>
</context>
<context>
    <name>SavedVoicesBox</name>
    <message>
        <location filename="../../app/ui/saved_voices.py" line="104"/>
        <source>Select a saved voice in the list first.</source>
        <translation>请先在列表中选择一个已保存的音色。</translation>
    </message>
    <message>
        <location filename="../../app/ui/saved_voices.py" line="118"/>
        <location filename="../../app/ui/saved_voices.py" line="126"/>
        <source>Import voice</source>
        <translation>导入音色</translation>
    </message>
    <message>
        <location filename="../../app/ui/saved_voices.py" line="128"/>
        <source>Voice files (%1)</source>
        <translation>音色文件 (%1)</translation>
    </message>
    <message>
        <location filename="../../app/ui/saved_voices.py" line="139"/>
        <location filename="../../app/ui/saved_voices.py" line="145"/>
        <source>Export voice</source>
        <translation>导出音色</translation>
    </message>
    <message>
        <location filename="../../app/ui/saved_voices.py" line="139"/>
        <source>Voice files (*.json)</source>
        <translation>音色文件 (*.json)</translation>
    </message>
    <message>
        <location filename="../../app/ui/saved_voices.py" line="156"/>
        <location filename="../../app/ui/saved_voices.py" line="162"/>
        <location filename="../../app/ui/saved_voices.py" line="185"/>
        <source>Voice from a recording</source>
        <translation>从录音生成音色</translation>
    </message>
    <message>
        <location filename="../../app/ui/saved_voices.py" line="156"/>
        <source>Audio (*.wav *.flac *.ogg)</source>
        <translation>音频 (*.wav *.flac *.ogg)</translation>
    </message>
    <message>
        <location filename="../../app/ui/saved_voices.py" line="163"/>
        <source>Exactly what is said in the recording:</source>
        <translation>录音中说的原话：</translation>
    </message>
    <message>
        <location filename="../../app/ui/saved_voices.py" line="174"/>
        <source>Made from %1</source>
        <translation>由 %1 生成</translation>
    </message>
    <message>
        <location filename="../../app/ui/saved_voices.py" line="180"/>
        <source>Saved the voice &quot;%1&quot; made from the recording.</source>
        <translation>已保存由录音生成的音色“%1”。</translation>
    </message>
    <message>
        <location filename="../../app/ui/saved_voices.py" line="188"/>
        <source>Saved voices</source>
        <translation>已保存的音色</translation>
    </message>
    <message>
        <location filename="../../app/ui/saved_voices.py" line="189"/>
        <source>Save voice...</source>
        <translation>保存音色...</translation>
    </message>
    <message>
        <location filename="../../app/ui/saved_voices.py" line="190"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../app/ui/saved_voices.py" line="191"/>
        <source>Import...</source>
        <translation>导入...</translation>
    </message>
    <message>
        <location filename="../../app/ui/saved_voices.py" line="194"/>
        <source>A .pt tensor, a ChatTTS-ui .csv, a ChatTTS-Forge .spkv1.json, a voice file or a speaker string in a .txt</source>
        <translation>.pt 张量、ChatTTS-ui 的 .csv、ChatTTS-Forge 的 .spkv1.json、音色文件，或存有音色字符串的 .txt</translation>
    </message>
    <message>
        <location filename="../../app/ui/saved_voices.py" line="198"/>
        <source>Export...</source>
        <translation>导出...</translation>
    </message>
    <message>
        <location filename="../../app/ui/saved_voices.py" line="199"/>
        <source>Audition</source>
        <translation>试听</translation>
    </message>
    <message>
        <location filename="../../app/ui/saved_voices.py" line="200"/>
        <source>Hear the selected voice say a test sentence</source>
        <translation>用选中的音色朗读一句测试语句</translation>
    </message>
    <message>
        <location filename="../../app/ui/saved_voices.py" line="201"/>
        <source>From recording...</source>
        <translation>从录音...</translation>
    </message>
    <message>
        <location filename="../../app/ui/saved_voices.py" line="203"/>
        <source>Make a voice from a recording and its transcript</source>
        <translation>用一段录音及其文字生成音色</translation>
    </message>
</context>
<context>
    <name>SentenceStatus</name>
    <message>
        <location filename="../../app/ui/narration/status.py" line="14"/>
        <source>To render</source>
        <translation>待生成</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/status.py" line="15"/>
        <source>Done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/status.py" line="16"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/status.py" line="38"/>
        <source>The take check flagged this take:</source>
        <translation>录音检查标记了这段录音：</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/status.py" line="39"/>
        <source>Checked: the take check found nothing wrong.</source>
        <translation>已检查：录音检查没有发现问题。</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/status.py" line="40"/>
        <source>Not checked: the take checker&apos;s models are not installed.</source>
        <translation>未检查：录音检查所需的模型没有安装。</translation>
    </message>
</context>
<context>
    <name>SentenceTableModel</name>
    <message>
        <location filename="../../app/ui/narration/sentence_model.py" line="102"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/sentence_model.py" line="103"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/sentence_model.py" line="104"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/sentence_model.py" line="105"/>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/sentence_model.py" line="106"/>
        <source>Take</source>
        <translation>版本</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/sentence_model.py" line="107"/>
        <source>Lock</source>
        <translation>锁定</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/sentence_model.py" line="169"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/sentence_model.py" line="174"/>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <location filename="../../app/ui/shortcuts_dialog.py" line="36"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../../app/ui/shortcuts_dialog.py" line="40"/>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <location filename="../../app/ui/shortcuts_dialog.py" line="40"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../app/ui/shortcuts_dialog.py" line="50"/>
        <source>Space pauses while the text box does not have the focus. Ctrl+click a sentence in the text to play from it.</source>
        <translation>文本框没有焦点时，空格键暂停播放。按住 Ctrl 单击文本中的某一句，从这一句开始播放。</translation>
    </message>
</context>
<context>
    <name>SpeechServerDialog</name>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="155"/>
        <source>Start the server</source>
        <translation>启动服务器</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="155"/>
        <source>Stop the server</source>
        <translation>停止服务器</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="162"/>
        <source>Port %1 is in use by another program; choose another port.</source>
        <translation>端口 %1 已被其他程序占用；请换一个端口。</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="169"/>
        <source>Other computers may use the server only with a key: type one or press New key.</source>
        <translation>其他电脑只能凭密钥使用服务器：请输入一个密钥，或点击“新密钥”。</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="172"/>
        <source>The server stopped unexpectedly; the log (Help &gt; Open the log folder) has the details.</source>
        <translation>服务器意外停止；详情见日志（帮助 &gt; 打开日志文件夹）。</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="179"/>
        <source>The server is stopped.</source>
        <translation>服务器已停止。</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="182"/>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="184"/>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="188"/>
        <source>Listening. Requests get &apos;model not ready&apos; (503) until the model is loaded.</source>
        <translation>正在监听。模型加载完成前，请求会收到“模型未就绪”（503）。</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="192"/>
        <source>Listening, with a test model of random weights: it answers with noise, not speech.</source>
        <translation>正在监听，但加载的是随机权重的测试模型：返回的是噪声，不是语音。</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="195"/>
        <source>Listening for this computer and others on your network (with the key).</source>
        <translation>正在监听本机和局域网内的其他电脑（需密钥）。</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="196"/>
        <source>Listening for programs on this computer.</source>
        <translation>正在监听本机上的程序。</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="199"/>
        <source>Speech server</source>
        <translation>语音服务器</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="202"/>
        <source>Programs that speak OpenAI&apos;s speech API (/v1/audio/speech) can use ChatTTS through this server, with the model loaded here. Playing text in this window goes first; their requests wait meanwhile.</source>
        <translation>支持 OpenAI 语音接口（/v1/audio/speech）的程序可以通过此服务器使用 ChatTTS，用的是本窗口已加载的模型。本窗口播放文本优先，期间它们的请求会等待。</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="207"/>
        <source>Command Prompt</source>
        <translation>命令提示符</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="209"/>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="210"/>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="211"/>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="212"/>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="207"/>
        <source>Try it</source>
        <translation>试一试</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="165"/>
        <source>The system does not allow listening on port %1 (it may be reserved); choose another port.</source>
        <translation>系统不允许在端口 %1 上监听（该端口可能已被保留）；请换一个端口。</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="214"/>
        <source>PowerShell</source>
        <translation>PowerShell</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="218"/>
        <source>Let other computers on my network use it (needs a key)</source>
        <translation>允许局域网内的其他电脑使用（需要密钥）</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="219"/>
        <source>optional on this computer alone</source>
        <translation>仅本机使用时可不填</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="220"/>
        <source>New key</source>
        <translation>新密钥</translation>
    </message>
    <message>
        <location filename="../../app/ui/server_dialog.py" line="221"/>
        <location filename="../../app/ui/server_dialog.py" line="222"/>
        <location filename="../../app/ui/server_dialog.py" line="223"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
</context>
<context>
    <name>TakeCheckController</name>
    <message>
        <location filename="../../app/ui/controllers/takes.py" line="95"/>
        <source>This take could not be checked; see the log for why.</source>
        <translation>无法检查这段录音；原因见日志。</translation>
    </message>
</context>
<context>
    <name>TakesPanel</name>
    <message>
        <location filename="../../app/ui/narration/takes_panel.py" line="85"/>
        <source>Take %1: seed %2, %3 s</source>
        <translation>版本 %1：种子 %2，%3 秒</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/takes_panel.py" line="91"/>
        <source>in use</source>
        <translation>使用中</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/takes_panel.py" line="132"/>
        <source>Takes of the selected sentence</source>
        <translation>所选句子的各个版本</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/takes_panel.py" line="133"/>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/takes_panel.py" line="134"/>
        <source>Listen to the selected take</source>
        <translation>试听所选版本</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/takes_panel.py" line="135"/>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/takes_panel.py" line="136"/>
        <source>Play the take in use, then the selected one</source>
        <translation>先播放使用中的版本，再播放所选版本</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/takes_panel.py" line="137"/>
        <source>Use this take</source>
        <translation>使用此版本</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/takes_panel.py" line="138"/>
        <source>New take (new seed)</source>
        <translation>新版本（新种子）</translation>
    </message>
    <message>
        <location filename="../../app/ui/narration/takes_panel.py" line="140"/>
        <source>Render this sentence again with another seed; the earlier takes are kept</source>
        <translation>用另一个种子重新生成此句；之前的版本会保留</translation>
    </message>
</context>
<context>
    <name>TestPage</name>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="131"/>
        <source>Hello! This is ChatTTS Studio speaking.</source>
        <translation>你好！这里是 ChatTTS Studio。</translation>
    </message>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="145"/>
        <source>The model is still loading; the test sentence plays as soon as it is ready.</source>
        <translation>模型仍在加载；加载完成后会立即播放测试句子。</translation>
    </message>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="166"/>
        <source>The model could not be loaded, so the test sentence cannot be played; go back a page to choose the model folder.</source>
        <translation>模型无法加载，因此无法播放测试句子；请返回上一页选择模型文件夹。</translation>
    </message>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="154"/>
        <source>Speaking...</source>
        <translation>正在合成...</translation>
    </message>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="182"/>
        <source>Made %1 s of audio in %2 s on %3, but it could not be played: %4</source>
        <translation>已在 %3 上用 %2 秒生成 %1 秒音频，但无法播放：%4</translation>
    </message>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="189"/>
        <source>Played %1 s of audio, made in %2 s on %3.</source>
        <translation>已播放 %1 秒音频，用时 %2 秒（%3）。</translation>
    </message>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="198"/>
        <source>A test sentence</source>
        <translation>试听一句</translation>
    </message>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="199"/>
        <source>Play the test sentence</source>
        <translation>播放测试句子</translation>
    </message>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="152"/>
        <source>Making the test sentence; it cannot be heard without a sound device...</source>
        <translation>正在生成测试句子；没有声音设备，所以听不到……</translation>
    </message>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="178"/>
        <source>Made %1 s of noise in %2 s on %3 (a random-weight test model, not speech); it was not played: %4</source>
        <translation>已在 %3 上用 %2 秒生成 %1 秒的噪声（随机权重的测试模型，不是语音）；没有播放：%4</translation>
    </message>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="185"/>
        <source>Played %1 s of noise, made in %2 s on %3: this is a random-weight test model, so you heard noise, not speech.</source>
        <translation>已播放 %1 秒的噪声（在 %3 上用 %2 秒生成）：这是随机权重的测试模型，所以你听到的是噪声，不是语音。</translation>
    </message>
</context>
<context>
    <name>TextPanel</name>
    <message>
        <location filename="../../app/ui/text_panel.py" line="198"/>
        <source>Cannot open the file</source>
        <translation>无法打开文件</translation>
    </message>
    <message>
        <location filename="../../app/ui/text_panel.py" line="203"/>
        <source>Open text</source>
        <translation>打开文本</translation>
    </message>
    <message>
        <location filename="../../app/ui/text_panel.py" line="203"/>
        <source>Text files (*.txt)</source>
        <translation>文本文件 (*.txt)</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/ui/text_panel.py" line="211"/>
        <source>%n character(s)</source>
        <translation>
            <numerusform>%n 个字符</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/ui/text_panel.py" line="213"/>
        <source> (over the %1 limit)</source>
        <translation>（超过 %1 字的上限）</translation>
    </message>
    <message>
        <location filename="../../app/ui/text_panel.py" line="221"/>
        <source>Type or paste Chinese or English text here, or drop a .txt file.</source>
        <translation>在此输入或粘贴中文或英文文本，或拖入 .txt 文件。</translation>
    </message>
    <message>
        <location filename="../../app/ui/text_panel.py" line="223"/>
        <source>Open .txt...</source>
        <translation>打开 .txt...</translation>
    </message>
    <message>
        <location filename="../../app/ui/text_panel.py" line="224"/>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location filename="../../app/ui/text_panel.py" line="225"/>
        <source>Show exactly what will be spoken</source>
        <translation>显示实际将要朗读的内容</translation>
    </message>
    <message>
        <location filename="../../app/ui/text_panel.py" line="227"/>
        <source>Insert a short pause</source>
        <translation>插入短停顿</translation>
    </message>
    <message>
        <location filename="../../app/ui/text_panel.py" line="228"/>
        <source>Insert a laugh</source>
        <translation>插入笑声</translation>
    </message>
    <message>
        <location filename="../../app/ui/text_panel.py" line="229"/>
        <source>Insert a long pause</source>
        <translation>插入长停顿</translation>
    </message>
</context>
<context>
    <name>TextPreview</name>
    <message>
        <location filename="../../app/ui/text_preview.py" line="50"/>
        <source>The text has changed; press Preview to see what will be spoken.</source>
        <translation>文本已更改；请点“预览”查看将要朗读的内容。</translation>
    </message>
</context>
<context>
    <name>TrayIcon</name>
    <message>
        <location filename="../../app/ui/tray.py" line="122"/>
        <location filename="../../app/ui/tray.py" line="125"/>
        <source>ChatTTS Studio</source>
        <translation>ChatTTS Studio</translation>
    </message>
</context>
<context>
    <name>TrayMenu</name>
    <message>
        <location filename="../../app/ui/tray.py" line="70"/>
        <source>&amp;Resume</source>
        <translation>继续(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../app/ui/tray.py" line="70"/>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../app/ui/tray.py" line="76"/>
        <source>&amp;Play clipboard</source>
        <translation>朗读剪贴板(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../app/ui/tray.py" line="77"/>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../app/ui/tray.py" line="78"/>
        <source>Show &amp;window</source>
        <translation>显示窗口(&amp;W)</translation>
    </message>
    <message>
        <location filename="../../app/ui/tray.py" line="79"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
</context>
<context>
    <name>VoicePanel</name>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="227"/>
        <location filename="../../app/ui/voice_panel.py" line="242"/>
        <location filename="../../app/ui/voice_panel.py" line="258"/>
        <source>Save voice</source>
        <translation>保存音色</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="228"/>
        <source>Play something with this voice first, so its speaker string is known.</source>
        <translation>请先用这个音色播放一次，以便得到它的音色字符串。</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="258"/>
        <source>Name of this voice:</source>
        <translation>音色名称：</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="154"/>
        <source>Voice from a recording</source>
        <translation>从录音生成音色</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="278"/>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="279"/>
        <source>Speaker</source>
        <translation>说话人</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="280"/>
        <source>Random</source>
        <translation>随机</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="281"/>
        <source>Pick a random voice</source>
        <translation>随机挑选一个音色</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="282"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="283"/>
        <source>Paste</source>
        <translation>粘贴</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="156"/>
        <source>Voice of seed %1</source>
        <translation>种子 %1 的音色</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="157"/>
        <source>Custom voice</source>
        <translation>自定义音色</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="165"/>
        <source>Save this voice under a name</source>
        <translation>为这个音色取名并保存</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="167"/>
        <source>Play something with this voice first; then it can be saved</source>
        <translation>请先用这个音色播放一段内容，然后才能保存</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="170"/>
        <source>Copy this voice&apos;s speaker string</source>
        <translation>复制这个音色的说话人字符串</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="173"/>
        <source>Play something with this voice first; then its speaker string can be copied</source>
        <translation>请先用这个音色播放一段内容，然后才能复制它的说话人字符串</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="195"/>
        <source>This voice&apos;s speaker string is not known yet: play something with it first, then copy.</source>
        <translation>这个音色的说话人字符串还未知：请先用它播放一段内容，再复制。</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="202"/>
        <source>Copied the speaker string of %1.</source>
        <translation>已复制“%1”的说话人字符串。</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="209"/>
        <source>The clipboard holds no text; copy a speaker string first.</source>
        <translation>剪贴板里没有文字；请先复制一个说话人字符串。</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="219"/>
        <source>Pasted a custom voice; Play uses it until the seed changes.</source>
        <translation>已粘贴自定义音色；在更改种子之前，播放都使用它。</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="247"/>
        <source>Saved the voice &quot;%1&quot;.</source>
        <translation>已保存音色“%1”。</translation>
    </message>
    <message>
        <location filename="../../app/ui/voice_panel.py" line="284"/>
        <source>Use a speaker string copied from elsewhere</source>
        <translation>使用从别处复制的说话人字符串</translation>
    </message>
</context>
<context>
    <name>WaveformView</name>
    <message>
        <location filename="../../app/ui/narration/waveform.py" line="204"/>
        <source>No audio yet</source>
        <translation>尚无音频</translation>
    </message>
</context>
<context>
    <name>WelcomePage</name>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="32"/>
        <source>Welcome to ChatTTS Studio</source>
        <translation>欢迎使用 ChatTTS Studio</translation>
    </message>
    <message>
        <location filename="../../app/ui/first_run_wizard.py" line="35"/>
        <source>ChatTTS Studio turns text into natural speech on this computer. In the next steps it checks your computer, finds the model and speaks a test sentence.</source>
        <translation>ChatTTS Studio 在这台电脑上把文字变成自然的语音。接下来它会检查你的电脑、找到模型，并朗读一句测试语句。</translation>
    </message>
</context>
<context>
    <name>WindowLayout</name>
    <message>
        <location filename="../../app/ui/window_layout.py" line="136"/>
        <source>Loading the model...</source>
        <translation>正在加载模型...</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="143"/>
        <source>The model could not be loaded</source>
        <translation>无法加载模型</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="145"/>
        <source>No model</source>
        <translation>没有模型</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="151"/>
        <source>Ready: %1 on %2, %3 (loaded in %4 s).</source>
        <translation>就绪：%1，运行于 %2，%3（加载用时 %4 秒）。</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="159"/>
        <source>Precision %1 is not available on this device, so %2 runs.</source>
        <translation>此设备不支持 %1 精度，因此使用 %2。</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="166"/>
        <source>int8 is the fast choice on a CPU; for exact numbers choose Model &gt; Precision: fp32.</source>
        <translation>int8 是 CPU 上的快速选项；如需精确数值，请选择 模型 &gt; 精度：fp32。</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="182"/>
        <source>Speaking...</source>
        <translation>正在合成...</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="197"/>
        <source>Buffering: waiting for the rest of the speech to be ready...</source>
        <translation>正在缓冲：等待后面的语音生成完毕……</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="205"/>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="235"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="235"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="237"/>
        <source>Go on from where it paused (Space)</source>
        <translation>从暂停处继续播放（空格键）</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="239"/>
        <source>Pause what is playing (Space)</source>
        <translation>暂停正在播放的内容（空格键）</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="247"/>
        <source>%1 must be greater than %2; change it in the Parameters tab.</source>
        <translation>%1 必须大于 %2；请在“参数”页中修改。</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="250"/>
        <source>%1 must be greater than %2 and at most %3; change it in the Parameters tab.</source>
        <translation>%1 必须大于 %2 且不超过 %3；请在“参数”页中修改。</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="253"/>
        <source>%1 must be at least %2; change it in the Parameters tab.</source>
        <translation>%1 不能小于 %2；请在“参数”页中修改。</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="255"/>
        <source>%1 must be between %2 and %3; change it in the Parameters tab.</source>
        <translation>%1 必须在 %2 到 %3 之间；请在“参数”页中修改。</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="263"/>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="264"/>
        <source>Speak the text (Ctrl+Enter)</source>
        <translation>朗读文本（Ctrl+Enter）</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="265"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="266"/>
        <source>Stop speaking (Esc)</source>
        <translation>停止朗读（Esc）</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="268"/>
        <source>Export WAV...</source>
        <translation>导出 WAV...</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="269"/>
        <source>Save the selected result as a WAV file (Ctrl+S)</source>
        <translation>将选中的结果保存为 WAV 文件（Ctrl+S）</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="270"/>
        <source>Voice</source>
        <translation>音色</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="271"/>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="272"/>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="180"/>
        <source>Making the audio (no sound device, so it is not played; Export WAV works)...</source>
        <translation>正在生成音频（没有声音设备，所以不会播放；“导出 WAV”可用）……</translation>
    </message>
    <message>
        <location filename="../../app/ui/window_layout.py" line="262"/>
        <source>Copy the warnings</source>
        <translation>复制这些警告</translation>
    </message>
</context>
</TS>
