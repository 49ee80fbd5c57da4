/* Wine-only stand-in for Windows 10's icuuc.dll (Wine 8.0 has none; Qt6Core imports it).
   Every converter "fails to open", so Qt falls back to its own UTF-8/UTF-16 codecs.
   Used by installer/wine-rehearsal.sh only: never shipped in the product. */
#include <stddef.h>
#define U_UNSUPPORTED_ERROR 16
typedef int UErrorCode;
__declspec(dllexport) void *ucnv_open(const char *name, UErrorCode *err) { if (err) *err = U_UNSUPPORTED_ERROR; return NULL; }
__declspec(dllexport) void ucnv_close(void *c) { (void)c; }
__declspec(dllexport) void UCNV_FROM_U_CALLBACK_SUBSTITUTE(void) {}
__declspec(dllexport) void UCNV_TO_U_CALLBACK_SUBSTITUTE(void) {}
__declspec(dllexport) void ucnv_reset(void *c) { (void)c; }
__declspec(dllexport) signed char ucnv_getMaxCharSize(void *c) { (void)c; return 4; }
__declspec(dllexport) const char *ucnv_getName(void *c, UErrorCode *err) { if (err) *err = U_UNSUPPORTED_ERROR; return NULL; }
__declspec(dllexport) void ucnv_getToUCallBack(void *c, void **a, const void **b) { (void)c; if (a) *a = NULL; if (b) *b = NULL; }
__declspec(dllexport) void ucnv_getFromUCallBack(void *c, void **a, const void **b) { (void)c; if (a) *a = NULL; if (b) *b = NULL; }
__declspec(dllexport) void ucnv_setToUCallBack(void *c, void *a, const void *b, void **d, const void **e, UErrorCode *err) { if (err) *err = U_UNSUPPORTED_ERROR; }
__declspec(dllexport) void ucnv_setFromUCallBack(void *c, void *a, const void *b, void **d, const void **e, UErrorCode *err) { if (err) *err = U_UNSUPPORTED_ERROR; }
__declspec(dllexport) void ucnv_cbToUWriteUChars(void *a, const void *b, int c, int d, UErrorCode *err) { if (err) *err = U_UNSUPPORTED_ERROR; }
__declspec(dllexport) void ucnv_toUnicode(void *c, void **t, const void *tl, const char **s, const char *sl, int *o, char f, UErrorCode *err) { if (err) *err = U_UNSUPPORTED_ERROR; }
__declspec(dllexport) void ucnv_cbFromUWriteUChars(void *a, const void **b, const void *c, int d, UErrorCode *err) { if (err) *err = U_UNSUPPORTED_ERROR; }
__declspec(dllexport) int ucnv_toUCountPending(const void *c, UErrorCode *err) { if (err) *err = U_UNSUPPORTED_ERROR; return 0; }
__declspec(dllexport) int ucnv_fromUCountPending(const void *c, UErrorCode *err) { if (err) *err = U_UNSUPPORTED_ERROR; return 0; }
__declspec(dllexport) const char *ucnv_getStandardName(const char *n, const char *s, UErrorCode *err) { if (err) *err = U_UNSUPPORTED_ERROR; return NULL; }
__declspec(dllexport) const char *ucnv_getAvailableName(int n) { (void)n; return NULL; }
__declspec(dllexport) int ucnv_countAvailable(void) { return 0; }
__declspec(dllexport) void ucnv_fromUnicode(void *c, char **t, const char *tl, const void **s, const void *sl, int *o, char f, UErrorCode *err) { if (err) *err = U_UNSUPPORTED_ERROR; }
