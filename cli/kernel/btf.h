/* btf: the running kernel's own type sizes, from its BTF, read with libbpf.
 * libbpf is loaded with dlopen on first use, so runs that never ask pay nothing. */
#ifndef XSC_BTF_H
#define XSC_BTF_H
#include <stdbool.h>

/* The size in bytes of struct (or union) name in the running kernel; 0 when BTF or
 * libbpf is not available or the kernel has no such type. *why says which, if wanted. */
unsigned btf_struct_size(const char *name, const char **why);
/* Frees what btf_struct_size loaded. */
void btf_release(void);
#endif
