/* The WebAssembly build's sys/rseq.h: no thread registered rseq (a size of 0 says so) */
extern const unsigned int __rseq_size;
extern const long __rseq_offset;
#define RSEQ_SIG 0x53053053 /* x86 glibc sys/rseq.h */
