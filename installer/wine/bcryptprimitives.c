/* Wine-only stand-in for Windows 10's bcryptprimitives.dll (Wine 8.0 has none; Rust's standard
   library, in pydantic-core and hf-xet, imports ProcessPrng). RtlGenRandom gives the bytes.
   Used by installer/wine-rehearsal.sh only: never shipped in the product. */
#include <windows.h>
#include <ntsecapi.h>
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len) {
        ULONG chunk = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!RtlGenRandom(data, chunk)) return FALSE;
        data += chunk; len -= chunk;
    }
    return TRUE;
}
