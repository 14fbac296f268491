/* The WebAssembly build's sys/sysmacros.h: glibc's encoding of device numbers */
#define major(d) ((unsigned)((((d) >> 31 >> 1) & 0xfffff000) | (((d) >> 8) & 0x00000fff)))
#define minor(d) ((unsigned)((((d) >> 12) & 0xffffff00) | ((d) & 0x000000ff)))
