#include "model/xlat.h"
#include <errno.h>
#include <string.h>
#include <stdlib.h>
#include "base/util.h"
#include "base/banned.h"

#define E(x) { x, #x }
static const struct { int e; const char *name; } errnos[] = {
	E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO), E(E2BIG), E(ENOEXEC),
	E(EBADF), E(ECHILD), E(EAGAIN), E(ENOMEM), E(EACCES), E(EFAULT), E(ENOTBLK), E(EBUSY),
	E(EEXIST), E(EXDEV), E(ENODEV), E(ENOTDIR), E(EISDIR), E(EINVAL), E(ENFILE), E(EMFILE),
	E(ENOTTY), E(ETXTBSY), E(EFBIG), E(ENOSPC), E(ESPIPE), E(EROFS), E(EMLINK), E(EPIPE),
	E(EDOM), E(ERANGE), E(EDEADLK), E(ENAMETOOLONG), E(ENOLCK), E(ENOSYS), E(ENOTEMPTY),
	E(ELOOP), E(ENOMSG), E(EIDRM), E(ECHRNG), E(EL2NSYNC), E(EL3HLT), E(EL3RST), E(ELNRNG),
	E(EUNATCH), E(ENOCSI), E(EL2HLT), E(EBADE), E(EBADR), E(EXFULL), E(ENOANO), E(EBADRQC),
	E(EBADSLT), E(EBFONT), E(ENOSTR), E(ENODATA), E(ETIME), E(ENOSR), E(ENONET), E(ENOPKG),
	E(EREMOTE), E(ENOLINK), E(EADV), E(ESRMNT), E(ECOMM), E(EPROTO), E(EMULTIHOP),
	E(EDOTDOT), E(EBADMSG), E(EOVERFLOW), E(ENOTUNIQ), E(EBADFD), E(EREMCHG), E(ELIBACC),
	E(ELIBBAD), E(ELIBSCN), E(ELIBMAX), E(ELIBEXEC), E(EILSEQ), E(ERESTART), E(ESTRPIPE),
	E(EUSERS), E(ENOTSOCK), E(EDESTADDRREQ), E(EMSGSIZE), E(EPROTOTYPE), E(ENOPROTOOPT),
	E(EPROTONOSUPPORT), E(ESOCKTNOSUPPORT), E(EOPNOTSUPP), E(EPFNOSUPPORT), E(EAFNOSUPPORT),
	E(EADDRINUSE), E(EADDRNOTAVAIL), E(ENETDOWN), E(ENETUNREACH), E(ENETRESET),
	E(ECONNABORTED), E(ECONNRESET), E(ENOBUFS), E(EISCONN), E(ENOTCONN), E(ESHUTDOWN),
	E(ETOOMANYREFS), E(ETIMEDOUT), E(ECONNREFUSED), E(EHOSTDOWN), E(EHOSTUNREACH),
	E(EALREADY), E(EINPROGRESS), E(ESTALE), E(EUCLEAN), E(ENOTNAM), E(ENAVAIL), E(EISNAM),
	E(EREMOTEIO), E(EDQUOT), E(ENOMEDIUM), E(EMEDIUMTYPE), E(ECANCELED), E(ENOKEY),
	E(EKEYEXPIRED), E(EKEYREVOKED), E(EKEYREJECTED), E(EOWNERDEAD), E(ENOTRECOVERABLE),
	E(ERFKILL), E(EHWPOISON),
	/* The errno proposed with CHECK_FIELDS (asm-generic value); never merged. */
	{ 134, "EEXTSYS_NOOP" },
	/* 134 in 7.3's uapi (include/uapi/asm-generic/errno.h): a file of the wrong type, from
	 * openat2's OPENAT2_REGULAR; a name the catalogue may use, printed as the one above */
	{ 134, "EFTYPE" },
};
#undef E

const char *errno_name(int e)
{
	for (size_t i = 0; i < ARRAY_SIZE(errnos); i++)
		if (errnos[i].e == e)
			return errnos[i].name;
	return NULL;
}

int errno_from_name(const char *name)
{
	if (!strcmp(name, "EWOULDBLOCK"))
		return EAGAIN;
	if (!strcmp(name, "ENOTSUP"))
		return EOPNOTSUPP;
	/* the first two bytes first: a catalogue check looks up a thousand names */
	for (size_t i = 0; i < ARRAY_SIZE(errnos); i++)
		if (errnos[i].name[0] == name[0] && errnos[i].name[1] == name[1] && !strcmp(errnos[i].name, name))
			return errnos[i].e;
	return -1;
}

void errno_each(void (*fn)(const char *name, void *ctx), void *ctx)
{
	for (size_t i = 0; i < ARRAY_SIZE(errnos); i++)
		fn(errnos[i].name, ctx);
}

void xlat_number(struct sbuf *sb, uint64_t v)
{
	if (v < 10)
		sbuf_addf(sb, "%u", (unsigned)v);
	else
		sbuf_addf(sb, "%#llx", (unsigned long long)v);
}

uint64_t xlat_flags(struct sbuf *sb, const struct flagset *fs, uint64_t v)
{
	if (!fs) {
		xlat_number(sb, v);
		return 0;
	}
	if (fs->kind == FS_ENUM) {
		for (size_t i = 0; i < fs->nflags; i++)
			if (fs->flags[i].value == v) {
				sbuf_adds(sb, fs->flags[i].name);
				return 0;
			}
		if ((int64_t)v < 0 && (int64_t)v > -4096)
			sbuf_addf(sb, "%lld", (long long)(int64_t)v);
		else
			xlat_number(sb, v);
		sbuf_addf(sb, " /* %s??? */", fs->prefix ? fs->prefix : "");
		return v;
	}
	/* Bits. A combination (O_SYNC = __O_SYNC|O_DSYNC) is named only when it holds a bit
	 * no single flag names; pure aliases (SCHED_FLAG_ALL) are never used to decode. */
	uint64_t rest = v, single = 0;
	size_t start = sb->len;
	for (size_t i = 0; i < fs->nflags; i++)
		if (!fs->flags[i].mask)
			single |= fs->flags[i].value;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < fs->nflags; i++) {
			const struct flag *f = &fs->flags[i];
			if (!f->value || (pass == 0) != f->mask)
				continue;
			if (f->mask && (!(f->value & ~single) || strstr(f->name, "__")))
				continue; /* aliases, and kernel-internal masks such as MOUNT_ATTR__ATIME */
			if ((rest & f->value) == f->value) {
				if (sb->len > start)
					sbuf_addch(sb, '|');
				sbuf_adds(sb, f->name);
				rest &= ~f->value;
			}
		}
	}
	if (rest || sb->len == start) {
		bool named = sb->len > start;
		if (named)
			sbuf_addch(sb, '|');
		xlat_number(sb, rest);
		if (!named && rest && fs->prefix && *fs->prefix)
			sbuf_addf(sb, " /* %s??? */", fs->prefix); /* strace: nothing known in it */
	}
	return rest;
}

uint64_t xlat_flags_valued(struct sbuf *sb, const struct flagset *fs, uint64_t v)
{
	if (!fs || !fs->value_mask)
		return xlat_flags(sb, fs, v);
	uint64_t m = fs->value_mask, low = v & m;
	const char *name = NULL;
	for (size_t i = 0; i < fs->nflags && !name; i++)
		if (fs->flags[i].value == low && !(fs->flags[i].value & ~m))
			name = fs->flags[i].name;
	if (name)
		sbuf_adds(sb, name);
	else
		xlat_number(sb, low);
	if (!(v & ~m))
		return 0;
	sbuf_addch(sb, '|');
	return xlat_flags(sb, fs, v & ~m);
}

/* The comment strace prints after a value it cannot name: its own (renameat2's "RENAME_??")
 * or the set's prefix and "???". */
static void put_unknown(struct sbuf *sb, const struct flagset *fs)
{
	if (fs->strace.unknown)
		sbuf_addf(sb, " /* %s */", fs->strace.unknown);
	else if (fs->prefix && *fs->prefix)
		sbuf_addf(sb, " /* %s??? */", fs->prefix);
}

/* Entry i of the set's strace table: a flag of the set, or one of the names only the table has. */
static const struct flag *table_flag(const struct flagset *fs, size_t i)
{
	return i < fs->nflags ? &fs->flags[i] : &fs->strace.extra[i - fs->nflags];
}

/* Names from the list idx (n entries; NULL: the whole set) whose bits are all in *v, in
 * order, '|'-joined after what sb holds from start; clears them from *v. Masks a table
 * holds are used as strace uses them; without a table, xsc's aliases are skipped. */
static void put_greedy(struct sbuf *sb, size_t start, const struct flagset *fs, const unsigned *idx, size_t n,
		       uint64_t *v, const bool *used)
{
	for (size_t k = 0; k < n && *v; k++) {
		size_t i = idx ? idx[k] : k;
		const struct flag *f = table_flag(fs, i);
		if (!f->value || (used && used[i]) || (f->value & *v) != f->value)
			continue;
		if (!idx && f->mask)
			continue;
		if (sb->len > start)
			sbuf_addch(sb, '|');
		sbuf_adds(sb, f->name);
		*v &= ~f->value;
	}
}

void xlat_strace(struct sbuf *sb, const struct flagset *fs, uint64_t v)
{
	xlat_strace_as(sb, fs, v, false);
}

void xlat_strace_as(struct sbuf *sb, const struct flagset *fs, uint64_t v, bool dec)
{
	if (!fs) {
		sbuf_addf(sb, v ? "%#llx" : "0", (unsigned long long)v);
		return;
	}
	const struct strace_xlat *x = &fs->strace;
	if (fs->kind == FS_ENUM) {
		for (size_t i = 0; i < fs->nflags; i++)
			if (fs->flags[i].value == v) {
				sbuf_adds(sb, fs->flags[i].name);
				return;
			}
		sbuf_addf(sb, v && !dec ? "%#llx" : "%llu", (unsigned long long)v);
		put_unknown(sb, fs);
		return;
	}
	size_t start = sb->len;
	if (x->nfirst) {
		/* the first table: open's access mode looked up as a value, statx's sync type as bits
		 * (0 named by its zero entry) */
		uint64_t low = v & x->first_mask;
		const struct flag *zero = table_flag(fs, x->first[0]);
		if (x->first_by_value) {
			size_t k = 0;
			while (k < x->nfirst && table_flag(fs, x->first[k])->value != low)
				k++;
			if (k < x->nfirst)
				sbuf_adds(sb, table_flag(fs, x->first[k])->name);
			else
				sbuf_addf(sb, "%#llx", (unsigned long long)low);
		} else if (!low && !zero->value) {
			sbuf_adds(sb, zero->name);
		} else {
			put_greedy(sb, start, fs, x->first, x->nfirst, &low, NULL);
			if (low)
				sbuf_addf(sb, "%s%#llx", sb->len > start ? "|" : "", (unsigned long long)low);
		}
		v &= ~x->first_mask;
		if (!v)
			return;
		sbuf_addch(sb, '|');
		start = sb->len;
	} else if (!v) {
		const struct flag *zero = x->norder ? table_flag(fs, x->order[0]) : NULL;
		sbuf_adds(sb, zero && !zero->value ? zero->name : "0");
		return;
	}
	bool *used = xcalloc(fs->nflags + x->nextra + 1, sizeof(*used));
	for (size_t k = 0; k < x->norder; k++)
		used[x->order[k]] = true;
	put_greedy(sb, start, fs, x->order, x->norder, &v, NULL);
	put_greedy(sb, start, fs, NULL, fs->nflags, &v, x->norder ? used : NULL);
	free(used);
	bool named = sb->len > start;
	if (v || !named)
		sbuf_addf(sb, "%s%#llx", named ? "|" : "", (unsigned long long)v);
	if (!named && !x->nfirst)
		put_unknown(sb, fs);
}
