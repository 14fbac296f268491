/* Included last in every .c file: unsafe string functions become compile errors. */
#ifndef XSC_BANNED_H
#define XSC_BANNED_H
#define BANNED(func) sorry_##func##_is_a_banned_function
#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) BANNED(strncat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef strtok_r
#define strtok_r(x, y, z) BANNED(strtok_r)
#undef gets
#define gets(x) BANNED(gets)
#endif
