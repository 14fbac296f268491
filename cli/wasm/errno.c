/* errno at the C library's edge: wasi-libc sets WASI's numbers (ENOENT is 44 there, 2 in
 * Linux) when a file operation fails, while xsc compares errno with Linux's numbers and prints
 * Linux's texts (cli/wasm/compat.h). compat.h wraps each libc call xsc makes that sets errno
 * (XSC_LINUX_ERRNO); the wrapper turns the number WASI's libc left into Linux's, here. */
#include <wasi/api.h>

/* WASI's numbers (/usr/include/wasm32-wasi/__errno_values.h, __WASI_ERRNO_*) to Linux's
 * (asm-generic/errno-base.h and errno.h, in effect here through compat.h): the same name on
 * both sides, save two. WASI's ENOTSUP is Linux's EOPNOTSUPP (ENOTSUP's value in glibc's
 * bits/errno.h; the uapi names only EOPNOTSUPP). WASI's ENOTCAPABLE ("capabilities
 * insufficient": a path outside the directories the host granted) has no Linux number; a
 * refusal to reach a file reads as EACCES. */
static const unsigned char wasi_to_linux[] = {
	[__WASI_ERRNO_2BIG] = E2BIG,
	[__WASI_ERRNO_ACCES] = EACCES,
	[__WASI_ERRNO_ADDRINUSE] = EADDRINUSE,
	[__WASI_ERRNO_ADDRNOTAVAIL] = EADDRNOTAVAIL,
	[__WASI_ERRNO_AFNOSUPPORT] = EAFNOSUPPORT,
	[__WASI_ERRNO_AGAIN] = EAGAIN,
	[__WASI_ERRNO_ALREADY] = EALREADY,
	[__WASI_ERRNO_BADF] = EBADF,
	[__WASI_ERRNO_BADMSG] = EBADMSG,
	[__WASI_ERRNO_BUSY] = EBUSY,
	[__WASI_ERRNO_CANCELED] = ECANCELED,
	[__WASI_ERRNO_CHILD] = ECHILD,
	[__WASI_ERRNO_CONNABORTED] = ECONNABORTED,
	[__WASI_ERRNO_CONNREFUSED] = ECONNREFUSED,
	[__WASI_ERRNO_CONNRESET] = ECONNRESET,
	[__WASI_ERRNO_DEADLK] = EDEADLK,
	[__WASI_ERRNO_DESTADDRREQ] = EDESTADDRREQ,
	[__WASI_ERRNO_DOM] = EDOM,
	[__WASI_ERRNO_DQUOT] = EDQUOT,
	[__WASI_ERRNO_EXIST] = EEXIST,
	[__WASI_ERRNO_FAULT] = EFAULT,
	[__WASI_ERRNO_FBIG] = EFBIG,
	[__WASI_ERRNO_HOSTUNREACH] = EHOSTUNREACH,
	[__WASI_ERRNO_IDRM] = EIDRM,
	[__WASI_ERRNO_ILSEQ] = EILSEQ,
	[__WASI_ERRNO_INPROGRESS] = EINPROGRESS,
	[__WASI_ERRNO_INTR] = EINTR,
	[__WASI_ERRNO_INVAL] = EINVAL,
	[__WASI_ERRNO_IO] = EIO,
	[__WASI_ERRNO_ISCONN] = EISCONN,
	[__WASI_ERRNO_ISDIR] = EISDIR,
	[__WASI_ERRNO_LOOP] = ELOOP,
	[__WASI_ERRNO_MFILE] = EMFILE,
	[__WASI_ERRNO_MLINK] = EMLINK,
	[__WASI_ERRNO_MSGSIZE] = EMSGSIZE,
	[__WASI_ERRNO_MULTIHOP] = EMULTIHOP,
	[__WASI_ERRNO_NAMETOOLONG] = ENAMETOOLONG,
	[__WASI_ERRNO_NETDOWN] = ENETDOWN,
	[__WASI_ERRNO_NETRESET] = ENETRESET,
	[__WASI_ERRNO_NETUNREACH] = ENETUNREACH,
	[__WASI_ERRNO_NFILE] = ENFILE,
	[__WASI_ERRNO_NOBUFS] = ENOBUFS,
	[__WASI_ERRNO_NODEV] = ENODEV,
	[__WASI_ERRNO_NOENT] = ENOENT,
	[__WASI_ERRNO_NOEXEC] = ENOEXEC,
	[__WASI_ERRNO_NOLCK] = ENOLCK,
	[__WASI_ERRNO_NOLINK] = ENOLINK,
	[__WASI_ERRNO_NOMEM] = ENOMEM,
	[__WASI_ERRNO_NOMSG] = ENOMSG,
	[__WASI_ERRNO_NOPROTOOPT] = ENOPROTOOPT,
	[__WASI_ERRNO_NOSPC] = ENOSPC,
	[__WASI_ERRNO_NOSYS] = ENOSYS,
	[__WASI_ERRNO_NOTCONN] = ENOTCONN,
	[__WASI_ERRNO_NOTDIR] = ENOTDIR,
	[__WASI_ERRNO_NOTEMPTY] = ENOTEMPTY,
	[__WASI_ERRNO_NOTRECOVERABLE] = ENOTRECOVERABLE,
	[__WASI_ERRNO_NOTSOCK] = ENOTSOCK,
	[__WASI_ERRNO_NOTSUP] = EOPNOTSUPP,
	[__WASI_ERRNO_NOTTY] = ENOTTY,
	[__WASI_ERRNO_NXIO] = ENXIO,
	[__WASI_ERRNO_OVERFLOW] = EOVERFLOW,
	[__WASI_ERRNO_OWNERDEAD] = EOWNERDEAD,
	[__WASI_ERRNO_PERM] = EPERM,
	[__WASI_ERRNO_PIPE] = EPIPE,
	[__WASI_ERRNO_PROTO] = EPROTO,
	[__WASI_ERRNO_PROTONOSUPPORT] = EPROTONOSUPPORT,
	[__WASI_ERRNO_PROTOTYPE] = EPROTOTYPE,
	[__WASI_ERRNO_RANGE] = ERANGE,
	[__WASI_ERRNO_ROFS] = EROFS,
	[__WASI_ERRNO_SPIPE] = ESPIPE,
	[__WASI_ERRNO_SRCH] = ESRCH,
	[__WASI_ERRNO_STALE] = ESTALE,
	[__WASI_ERRNO_TIMEDOUT] = ETIMEDOUT,
	[__WASI_ERRNO_TXTBSY] = ETXTBSY,
	[__WASI_ERRNO_XDEV] = EXDEV,
	[__WASI_ERRNO_NOTCAPABLE] = EACCES,
};

int xsc_errno_enter(void)
{
	int saved = errno;
	errno = 0;
	return saved;
}

/* A call that left errno alone keeps the caller's; one that set it gets Linux's number. A
 * number this table lacks (none in wasi-libc's list) stays as it is. */
void xsc_errno_leave(int saved)
{
	int e = errno;
	if (e == 0)
		errno = saved;
	else if (e > 0 && (size_t)e < sizeof(wasi_to_linux) && wasi_to_linux[e])
		errno = wasi_to_linux[e];
}
