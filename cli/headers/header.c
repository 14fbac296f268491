/* header: libclang (through dlopen) turns a uapi header into layouts. See header.h. */
#include "headers/header.h"
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <clang-c/Index.h>
#include "base/out.h"
#include "base/diag.h"
#include "base/dynlib.h"
#include "base/sbuf.h"
#include "headers/fetch.h"
#include "headers/hinclude.h"
#include "headers/hmacro.h"
#include "base/landlock.h"
#include "model/catalog.h"
#include "model/kver.h"
#include "base/banned.h"

/* The libclang entry points used here, resolved once. */
#define CLANG_FUNCS(X)                                                                              \
	X(CXIndex, createIndex, (int, int))                                                         \
	X(void, disposeIndex, (CXIndex))                                                            \
	X(enum CXErrorCode, parseTranslationUnit2,                                                  \
	  (CXIndex, const char *, const char *const *, int, struct CXUnsavedFile *, unsigned, unsigned, \
	   CXTranslationUnit *))                                                                    \
	X(void, disposeTranslationUnit, (CXTranslationUnit))                                        \
	X(CXCursor, getTranslationUnitCursor, (CXTranslationUnit))                                  \
	X(unsigned, visitChildren, (CXCursor, CXCursorVisitor, CXClientData))                       \
	X(CXString, getCursorSpelling, (CXCursor))                                                  \
	X(const char *, getCString, (CXString))                                                     \
	X(void, disposeString, (CXString))                                                          \
	X(CXSourceLocation, getCursorLocation, (CXCursor))                                          \
	X(void, getExpansionLocation, (CXSourceLocation, CXFile *, unsigned *, unsigned *, unsigned *)) \
	X(CXString, getFileName, (CXFile))                                                          \
	X(const char *, getFileContents, (CXTranslationUnit, CXFile, size_t *))                     \
	X(unsigned, isCursorDefinition, (CXCursor))                                                 \
	X(unsigned, Cursor_isAnonymous, (CXCursor))                                                 \
	X(unsigned, Cursor_isAnonymousRecordDecl, (CXCursor))                                       \
	X(unsigned, Cursor_isMacroFunctionLike, (CXCursor))                                         \
	X(unsigned, Cursor_isBitField, (CXCursor))                                                  \
	X(int, getFieldDeclBitWidth, (CXCursor))                                                    \
	X(long long, Cursor_getOffsetOfField, (CXCursor))                                           \
	X(CXType, getCursorType, (CXCursor))                                                        \
	X(CXType, getCanonicalType, (CXType))                                                       \
	X(CXString, getTypeSpelling, (CXType))                                                      \
	X(CXType, Type_getNamedType, (CXType))                                                      \
	X(CXType, getArrayElementType, (CXType))                                                    \
	X(long long, getArraySize, (CXType))                                                        \
	X(CXCursor, getTypeDeclaration, (CXType))                                                   \
	X(CXType, getEnumDeclIntegerType, (CXCursor))                                               \
	X(CXType, getTypedefDeclUnderlyingType, (CXCursor))                                         \
	X(long long, Type_getSizeOf, (CXType))                                                      \
	X(long long, Type_getAlignOf, (CXType))                                                     \
	X(long long, Type_getOffsetOf, (CXType, const char *))                                      \
	X(enum CXCursorKind, getCursorKind, (CXCursor))                                             \
	X(CXEvalResult, Cursor_Evaluate, (CXCursor))                                                \
	X(CXEvalResultKind, EvalResult_getKind, (CXEvalResult))                                     \
	X(unsigned, EvalResult_isUnsignedInt, (CXEvalResult))                                       \
	X(unsigned long long, EvalResult_getAsUnsigned, (CXEvalResult))                             \
	X(long long, EvalResult_getAsLongLong, (CXEvalResult))                                      \
	X(void, EvalResult_dispose, (CXEvalResult))                                                 \
	X(unsigned, getNumDiagnostics, (CXTranslationUnit))                                         \
	X(CXDiagnostic, getDiagnostic, (CXTranslationUnit, unsigned))                               \
	X(void, disposeDiagnostic, (CXDiagnostic))                                                  \
	X(enum CXDiagnosticSeverity, getDiagnosticSeverity, (CXDiagnostic))                         \
	X(CXString, getDiagnosticSpelling, (CXDiagnostic))                                          \
	X(CXSourceLocation, getDiagnosticLocation, (CXDiagnostic))                                  \
	X(CXSourceRange, getCursorExtent, (CXCursor))                                               \
	X(CXSourceLocation, getRangeEnd, (CXSourceRange))

static struct {
	bool tried, ok;
	void *lib;
#define X(ret, name, args) ret(*name) args;
	CLANG_FUNCS(X)
#undef X
} L;

/* The fuzz build loads libclang into a link namespace of its own, where it allocates with
 * glibc's malloc: under ASan's, each of its large blocks got a fresh mapping, and a parse ran
 * 3.5 times slower. xsc's own code stays under ASan. */
#ifdef XSC_CLANG_OWN_NAMESPACE
#define CLANG_NAMESPACE DYNLIB_OWN_NAMESPACE
#else
#define CLANG_NAMESPACE 0
#endif

static const struct dynlib clang_lib = {
	"libclang", "libclang1-14",
	(const char *const[]){ "libclang-14.so.1", "libclang.so.1", "libclang-15.so.1", "libclang-16.so.1", "libclang.so",
			       NULL },
	CLANG_NAMESPACE
};

static int load_clang(void)
{
	if (L.tried)
		return L.ok ? 0 : err("libclang is not available (install libclang1-14)");
	L.tried = true;
	static const struct dynlib_sym syms[] = {
#define X(ret, name, args) DYNLIB_SYM("clang_" #name, L.name),
		CLANG_FUNCS(X)
#undef X
	};
	L.lib = dynlib_open(&clang_lib, getenv("XSC_LIBCLANG"));
	if (!L.lib || dynlib_resolve(&clang_lib, L.lib, syms, ARRAY_SIZE(syms)))
		return err("%s", dynlib_error());
	L.ok = true;
	return 0;
}

/* ---- growing arrays, strings in the arena ---- */

void *header_push(void *arrp, size_t *n, size_t *alloc, size_t sz)
{
	void **arr = arrp;
	if (*n + 1 > *alloc) {
		*alloc = *alloc ? *alloc * 2 : 8;
		*arr = xrealloc(*arr, *alloc * sz);
	}
	void *p = (char *)*arr + (*n)++ * sz;
	memset(p, 0, sz);
	return p;
}
#define PUSH(arr, n, alloc) ((__typeof__(&(arr)[0]))header_push(&(arr), &(n), &(alloc), sizeof(*(arr))))

static const char *astr(struct header *h, const char *s) { return arena_strdup(&h->a, s); }

static const char *take(struct header *h, CXString s)
{
	const char *r = astr(h, L.getCString(s) ? L.getCString(s) : "");
	L.disposeString(s);
	return r;
}

bool header_line(const struct header *h, unsigned line, const char **start, size_t *len)
{
	if (!line || !h->text)
		return false;
	const char *p = h->text, *end = h->text + h->len;
	if (h->line_start) {
		if (line > h->nlines)
			return false;
		p = h->text + h->line_start[line - 1];
	} else {
		for (unsigned l = 1; l < line; l++) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			if (!nl)
				return false;
			p = nl + 1;
		}
	}
	if (p > end || (p == end && line > 1 && end[-1] == '\n'))
		return false;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	*start = p;
	*len = nl ? (size_t)(nl - p) : (size_t)(end - p);
	return true;
}

static const struct header *sort_h; /* qsort has no context argument */

static int struct_name_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(sort_h->structs[x].name, sort_h->structs[y].name);
	return c ? c : x < y ? -1 : x > y;
}

static void index_lines(struct header *h)
{
	const char *text = h->text ? h->text : ""; /* a header with no text has one empty line */
	size_t len = h->text ? h->len : 0;
	free(h->line_start);
	size_t n = 1;
	for (const char *p = text; (p = memchr(p, '\n', len - (size_t)(p - text))); p++)
		n++;
	h->line_start = xcalloc(n, sizeof(*h->line_start));
	h->nlines = 0;
	h->line_start[h->nlines++] = 0;
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\n')
			h->line_start[h->nlines++] = i + 1;
}

void header_index(struct header *h)
{
	index_lines(h);
	free(h->by_name);
	h->by_name = xcalloc(h->nstructs + 1, sizeof(*h->by_name));
	for (size_t i = 0; i < h->nstructs; i++)
		h->by_name[i] = i;
	sort_h = h;
	qsort(h->by_name, h->nstructs, sizeof(*h->by_name), struct_name_cmp);
}

const struct hstruct *header_find_struct(const struct header *h, const char *name)
{
	if (!h->by_name) {
		for (size_t i = 0; i < h->nstructs; i++)
			if (!strcmp(h->structs[i].name, name))
				return &h->structs[i];
		return NULL;
	}
	size_t lo = 0, hi = h->nstructs; /* the first whose name is not below name */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(h->structs[h->by_name[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < h->nstructs && !strcmp(h->structs[h->by_name[lo]].name, name) ? &h->structs[h->by_name[lo]] : NULL;
}

/* ---- comments, taken from the text: libclang attaches plain comments to the wrong field ---- */

/* Offset in text of line (1-based), col (1-based). */
static size_t text_pos(const struct header *h, unsigned line, unsigned col)
{
	const char *s;
	size_t n;
	if (!header_line(h, line, &s, &n))
		return h->len;
	size_t off = (size_t)(s - h->text) + (col ? col - 1 : 0);
	return off > h->len ? h->len : off;
}

static void add_comment_text(struct sbuf *sb, const char *s, size_t n)
{
	/* strip the comment markers and leading stars, join lines with spaces */
	bool space = sb->len > 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\n') {
			space = true;
			while (i + 1 < n && (s[i + 1] == ' ' || s[i + 1] == '\t' || s[i + 1] == '*'))
				i++;
			continue;
		}
		if (isspace((unsigned char)c)) {
			space = true;
			continue;
		}
		if (space && sb->len)
			sbuf_addch(sb, ' ');
		space = false;
		sbuf_addch(sb, c);
	}
}

/* The comment that starts after position p on the same line (after a ';' or ','). */
static void trailing_comment(const struct header *h, size_t p, struct sbuf *out)
{
	const char *t = h->text;
	while (p < h->len && t[p] != '\n' && (t[p] == ' ' || t[p] == '\t' || t[p] == ';' || t[p] == ','))
		p++;
	if (p + 1 >= h->len)
		return;
	if (t[p] == '/' && t[p + 1] == '*') {
		const char *e = strstr(t + p + 2, "*/");
		size_t end = e ? (size_t)(e - t) : h->len;
		add_comment_text(out, t + p + 2, end - p - 2);
	} else if (t[p] == '/' && t[p + 1] == '/') {
		const char *nl = memchr(t + p, '\n', h->len - p);
		size_t end = nl ? (size_t)(nl - t) : h->len;
		add_comment_text(out, t + p + 2, end - p - 2);
	}
}

/* The comment block that ends on the line just above `line` (only whitespace before it
 * on its first line). Returns its raw text span. */
static bool comment_above(const struct header *h, unsigned line, const char **s, size_t *n)
{
	const char *ls;
	size_t ln;
	if (line < 2 || !header_line(h, line - 1, &ls, &ln))
		return false;
	size_t k = ln;
	while (k && isspace((unsigned char)ls[k - 1]))
		k--;
	if (k >= 2 && ls[k - 2] == '*' && ls[k - 1] == '/') {
		const char *end = ls + k;
		/* find the start: the nearest comment opener before end, within 16 KiB (a "*" "/"
		 * that closes no comment must not send every field back to the top of the file) */
		const char *p = end - 2;
		const char *stop = (size_t)(p - h->text) > 16384 ? p - 16384 : h->text;
		while (p > stop && !(p[0] == '/' && p[1] == '*'))
			p--;
		if (!(p[0] == '/' && p[1] == '*'))
			return false;
		const char *bol = p;
		while (bol > h->text && bol[-1] != '\n')
			bol--;
		for (const char *q = bol; q < p; q++)
			if (!isspace((unsigned char)*q))
				return false;
		*s = p;
		*n = (size_t)(end - p);
		return true;
	}
	size_t i = 0;
	while (i < k && isspace((unsigned char)ls[i]))
		i++;
	if (i + 1 < k && ls[i] == '/' && ls[i + 1] == '/') {
		*s = ls + i;
		*n = k - i;
		return true;
	}
	return false;
}

/* The kernel-doc entry "@name: text" in a comment (up to the next "@x:" or the end). */
static void kdoc_entry(const char *c, size_t n, const char *name, struct sbuf *out)
{
	size_t nl = strlen(name);
	for (size_t i = 0; i + nl + 1 < n; i++) {
		if (c[i] != '@' || strncmp(c + i + 1, name, nl) ||
		    (c[i + 1 + nl] != ':' && c[i + 1 + nl] != ' ' && c[i + 1 + nl] != '\t'))
			continue;
		size_t s = i + nl + 2, e = s;
		while (e < n && !(c[e] == '@' && e + 1 < n && (isalpha((unsigned char)c[e + 1]) || c[e + 1] == '_') &&
				  (e == 0 || isspace((unsigned char)c[e - 1]) || c[e - 1] == '*')))
			e++;
		if (e >= 2 && e == n && c[e - 2] == '*' && c[e - 1] == '/')
			e -= 2;
		if (out->len)
			sbuf_adds(out, " ");
		add_comment_text(out, c + s, e - s);
		return;
	}
}

/* ---- types ---- */

static bool fixed_name(const char *n)
{
	static const char *const ok[] = { "__u8", "__u16", "__u32", "__u64", "__s8", "__s16", "__s32", "__s64",
		"__aligned_u64", "__aligned_be64", "__aligned_le64", "__le16", "__le32", "__le64", "__be16",
		"__be32", "__be64", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "int8_t", "int16_t",
		"int32_t", "int64_t", "__kernel_rwf_t", "char", "__u128", "__s128" };
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		if (!strcmp(n, ok[i]))
			return true;
	return false;
}

static const char *strip_qual(const char *s)
{
	for (;;) {
		if (!strncmp(s, "const ", 6))
			s += 6;
		else if (!strncmp(s, "volatile ", 9))
			s += 9;
		else
			return s;
	}
}

/* Fills type facts of f from t; the catalogue type goes into *ty (sbuf). */
/* A size or offset from the compiler, kept past 32 bits for the loader to refuse: cut to 32
 * bits, a 4 GiB array had size 0 (dropped as if flexible) and the field after it offset 8. */
static unsigned saturate(long long v)
{
	return v > (long long)UINT_MAX ? UINT_MAX : (unsigned)v;
}

static void classify(struct header *h, CXType t, struct hfield *f, struct sbuf *ty)
{
	if (t.kind == CXType_Elaborated)
		t = L.Type_getNamedType(t);
	CXType c = L.getCanonicalType(t);
	if (c.kind == CXType_ConstantArray) {
		CXType el = L.getArrayElementType(t.kind == CXType_ConstantArray ? t : c);
		long long n = L.getArraySize(c);
		struct sbuf inner = SBUF_INIT;
		classify(h, el, f, &inner);
		if (!strncmp(inner.buf, "u8[", 3) || strchr(inner.buf, '[')) { /* array of records */
			sbuf_addf(ty, "u8[%lld]", L.Type_getSizeOf(c) > 0 ? L.Type_getSizeOf(c) : 1);
		} else {
			sbuf_addf(ty, "%s[%lld]", inner.buf, n);
		}
		sbuf_release(&inner);
		return;
	}
	const char *written = take(h, L.getTypeSpelling(t));
	written = strip_qual(written);
	bool fixed = fixed_name(written);
	f->fixed_width = fixed;
	long long sz = L.Type_getSizeOf(c);
	switch (c.kind) {
	case CXType_Pointer:
	case CXType_BlockPointer:
		f->is_pointer = true;
		sbuf_adds(ty, "ptr");
		return;
	case CXType_Enum: {
		CXType it = L.getCanonicalType(L.getEnumDeclIntegerType(L.getTypeDeclaration(c)));
		f->fixed_width = false;
		f->is_signed = it.kind == CXType_Int || it.kind == CXType_Long || it.kind == CXType_LongLong ||
			       it.kind == CXType_Short || it.kind == CXType_SChar;
		sbuf_addf(ty, "%c%lld", f->is_signed ? 's' : 'u', sz * 8);
		return;
	}
	case CXType_Record:
		f->is_record = true;
		f->fixed_width = true;
		sbuf_addf(ty, "u8[%lld]", sz > 0 ? sz : 1);
		return;
	case CXType_Char_S:
	case CXType_Char_U:
		sbuf_adds(ty, "char");
		f->fixed_width = true;
		return;
	case CXType_SChar:
	case CXType_Short:
	case CXType_Int:
	case CXType_Long:
	case CXType_LongLong:
	case CXType_Int128:
		f->is_signed = true;
		/* fall through */
	case CXType_Bool:
	case CXType_UChar:
	case CXType_UShort:
	case CXType_UInt:
	case CXType_ULong:
	case CXType_ULongLong:
	case CXType_UInt128:
		if ((c.kind == CXType_Long || c.kind == CXType_ULong) && !fixed)
			f->is_long = true;
		if (strstr(written, "aligned_u64") || strstr(written, "aligned_be64") || strstr(written, "aligned_le64"))
			sbuf_adds(ty, "aligned_u64");
		else if (sz == 1 || sz == 2 || sz == 4 || sz == 8)
			sbuf_addf(ty, "%c%lld", f->is_signed ? 's' : 'u', sz * 8);
		else
			sbuf_addf(ty, "u8[%lld]", sz);
		return;
	default:
		sbuf_addf(ty, "u8[%lld]", sz > 0 ? sz : 1);
		return;
	}
}

/* ---- the walk ---- */

struct walk {
	struct header *h;
	const char *path;      /* the header's file as clang sees it */
	const char *probe;     /* the generated translation unit */
	char **cand;           /* macro names tried in the probe */
	size_t ncand;
	struct hmacro *mac;    /* per candidate */
	bool *have;            /* candidate evaluated */
	bool *defined;         /* candidate defined in the header (position known) */
	/* struct being built */
	struct hstruct *st;
	CXType top;
	struct hfield *fields;
	size_t nfields, afields;
	size_t nbits;          /* bitfield groups so far */
	const char *kdoc;      /* the struct's comment */
	size_t kdoc_len;
	size_t astructs;       /* h->structs allocated */
	size_t *ord;           /* candidate indices in name order */
};

/* The first place in w->ord whose name is not below n. */
static size_t first_cand(const struct walk *w, const char *n)
{
	size_t lo = 0, hi = w->ncand;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(w->cand[w->ord[mid]], n) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool in_file(CXCursor c, const char *path, unsigned *line, unsigned *col)
{
	CXFile f;
	unsigned l = 0, cl = 0, off;
	L.getExpansionLocation(L.getCursorLocation(c), &f, &l, &cl, &off);
	if (!f)
		return false;
	CXString s = L.getFileName(f);
	const char *n = L.getCString(s);
	bool r = n && !strcmp(n, path);
	L.disposeString(s);
	if (line)
		*line = l;
	if (col)
		*col = cl;
	return r;
}

static void field_doc(struct walk *w, CXCursor c, struct hfield *f, const char *kdname)
{
	struct header *h = w->h;
	struct sbuf doc = SBUF_INIT;
	const char *cs;
	size_t cn;
	if (comment_above(h, f->line, &cs, &cn)) {
		const char *b = cs + 2, *e = cs + cn;
		if (cn >= 4 && cs[1] == '*')
			e -= 2;
		add_comment_text(&doc, b, (size_t)(e - b));
	}
	CXFile fl;
	unsigned el = 0, ec = 0, off;
	L.getExpansionLocation(L.getRangeEnd(L.getCursorExtent(c)), &fl, &el, &ec, &off);
	if (el)
		trailing_comment(h, text_pos(h, el, ec), &doc);
	if (w->kdoc && kdname)
		kdoc_entry(w->kdoc, w->kdoc_len, kdname, &doc);
	f->doc = doc.len ? astr(h, doc.buf) : NULL;
	sbuf_release(&doc);
}

static bool reserved_name(const char *n)
{
	return strstr(n, "reserved") || strstr(n, "__pad") || strstr(n, "padding") || strstr(n, "spare") ||
	       strstr(n, "unused") || !strncmp(n, "pad", 3) || !strncmp(n, "__", 2);
}

/* __aligned_u64 is a macro (__u64 with an aligned attribute): the compiler's type
 * spelling says __u64, so the declaration's text decides. */
static void aligned_from_text(struct header *h, struct hfield *f)
{
	const char *ls;
	size_t ln;
	if (!header_line(h, f->line, &ls, &ln) || f->col < 1 || f->col - 1 > ln)
		return;
	const char *end = ls + f->col - 1; /* the field's name: its type is before it */
	for (const char *q = ls; q + 11 <= end; q++)
		if (!strncmp(q, "aligned_", 8) && (!strncmp(q + 8, "u64", 3) || !strncmp(q + 8, "le64", 4) ||
						    !strncmp(q + 8, "be64", 4))) {
			if (!strcmp(f->type, "u64"))
				f->type = astr(h, "aligned_u64");
			f->fixed_width = true;
			return;
		}
}

static struct hfield *new_field(struct walk *w, CXCursor c)
{
	struct hfield *f = PUSH(w->fields, w->nfields, w->afields);
	in_file(c, w->path, &f->line, &f->col);
	return f;
}

struct union_scan {
	struct walk *w;
	const char **names;
	size_t n, alloc;
	size_t nrecords;
	bool all_same;
	long long first_size;
	CXCursor first;
	bool have_first;
};

static enum CXChildVisitResult union_member(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	struct union_scan *u = d;
	enum CXCursorKind k = L.getCursorKind(c);
	if (k == CXCursor_StructDecl || k == CXCursor_UnionDecl) {
		if (L.Cursor_isAnonymousRecordDecl(c))
			u->nrecords++;
		return CXChildVisit_Continue;
	}
	if (k != CXCursor_FieldDecl)
		return CXChildVisit_Continue;
	CXType t = L.getCanonicalType(L.getCursorType(c));
	if (t.kind == CXType_Record)
		u->nrecords++;
	const char *name = take(u->w->h, L.getCursorSpelling(c));
	ALLOC_GROW(u->names, u->n + 1, u->alloc);
	u->names[u->n++] = name;
	if (!u->have_first) {
		u->first = c;
		u->have_first = true;
		u->first_size = L.Type_getSizeOf(t);
	} else if (L.Type_getSizeOf(t) != u->first_size) {
		u->all_same = false;
	}
	return CXChildVisit_Continue;
}

static enum CXChildVisitResult struct_member(CXCursor c, CXCursor parent, CXClientData d);

/* An anonymous union or struct inside the struct being built. */
static void anon_record(struct walk *w, CXCursor c)
{
	struct header *h = w->h;
	if (L.getCursorKind(c) == CXCursor_StructDecl) { /* its members are the struct's */
		L.visitChildren(c, struct_member, w);
		return;
	}
	struct union_scan u = { w, NULL, 0, 0, 0, true, 0, { 0 }, false };
	L.visitChildren(c, union_member, &u);
	CXType ut = L.getCursorType(c);
	struct hfield *f = new_field(w, c);
	f->is_union = true;
	f->size = saturate(L.Type_getSizeOf(ut));
	f->align = saturate(L.Type_getAlignOf(ut));
	f->union_of_structs = u.nrecords >= 2;
	long long off = u.n ? L.Type_getOffsetOf(w->top, u.names[0]) : -1;
	f->offset = off >= 0 ? saturate(off / 8) : 0;
	struct sbuf ty = SBUF_INIT;
	if (u.n && u.all_same && u.nrecords == 0) {
		f->name = u.names[0];
		classify(h, L.getCursorType(u.first), f, &ty);
		f->ctype = take(h, L.getTypeSpelling(L.getCursorType(u.first)));
		f->aliases = arena_alloc(&h->a, sizeof(char *) * (u.n ? u.n : 1));
		for (size_t i = 1; i < u.n; i++)
			f->aliases[f->naliases++] = u.names[i];
		field_doc(w, u.first, f, f->name);
	} else {
		f->name = u.n ? u.names[0] : astr(h, "union");
		f->is_record = true;
		f->fixed_width = true;
		f->ctype = astr(h, "union");
		sbuf_addf(&ty, "u8[%u]", f->size ? f->size : 1);
		f->aliases = arena_alloc(&h->a, sizeof(char *) * (u.n ? u.n : 1));
		for (size_t i = 1; i < u.n; i++)
			f->aliases[f->naliases++] = u.names[i];
	}
	f->type = astr(h, ty.buf);
	sbuf_release(&ty);
	free(u.names);
}

static enum CXChildVisitResult struct_member(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	struct walk *w = d;
	struct header *h = w->h;
	enum CXCursorKind k = L.getCursorKind(c);
	if ((k == CXCursor_StructDecl || k == CXCursor_UnionDecl) && L.Cursor_isAnonymousRecordDecl(c)) {
		anon_record(w, c);
		return CXChildVisit_Continue;
	}
	if (k != CXCursor_FieldDecl)
		return CXChildVisit_Continue;
	const char *name = take(h, L.getCursorSpelling(c));
	CXType t = L.getCursorType(c);
	long long off = L.Type_getOffsetOf(w->top, name);
	if (off < 0)
		off = L.Cursor_getOffsetOfField(c);
	if (L.Cursor_isBitField(c)) {
		CXType ct = L.getCanonicalType(t);
		unsigned unit = (unsigned)L.Type_getSizeOf(ct);
		unsigned start = unit ? (unsigned)(off / 8) / unit * unit : 0;
		struct hfield *last = w->nfields ? &w->fields[w->nfields - 1] : NULL;
		if (last && last->bitfield && last->offset == start && last->size == unit) {
			struct sbuf dd = SBUF_INIT;
			sbuf_addf(&dd, "%s, %s:%d", last->doc ? last->doc : "", name, L.getFieldDeclBitWidth(c));
			last->doc = astr(h, dd.buf);
			sbuf_release(&dd);
			return CXChildVisit_Continue;
		}
		struct hfield *f = new_field(w, c);
		struct sbuf ty = SBUF_INIT, nm = SBUF_INIT, dd = SBUF_INIT;
		classify(h, t, f, &ty);
		f->type = astr(h, ty.buf);
		f->ctype = take(h, L.getTypeSpelling(t));
		w->nbits++;
		if (w->nbits == 1)
			sbuf_adds(&nm, "bits");
		else
			sbuf_addf(&nm, "bits%zu", w->nbits);
		f->name = astr(h, nm.buf);
		f->offset = start;
		f->size = f->align = unit;
		f->bitfield = true;
		sbuf_addf(&dd, "bit fields: %s:%d", name, L.getFieldDeclBitWidth(c));
		f->doc = astr(h, dd.buf);
		sbuf_release(&ty), sbuf_release(&nm), sbuf_release(&dd);
		return CXChildVisit_Continue;
	}
	struct hfield *f = new_field(w, c);
	f->name = name;
	f->offset = off >= 0 ? saturate(off / 8) : 0;
	long long fsz = L.Type_getSizeOf(t), fal = L.Type_getAlignOf(t);
	f->size = fsz > 0 ? saturate(fsz) : 0; /* a flexible array member has no size */
	f->align = fal > 0 ? saturate(fal) : 1;
	f->ctype = take(h, L.getTypeSpelling(t));
	struct sbuf ty = SBUF_INIT;
	classify(h, t, f, &ty);
	f->type = astr(h, ty.buf);
	sbuf_release(&ty);
	CXType ct = L.getCanonicalType(t);
	if (ct.kind == CXType_Record) {
		CXCursor decl = L.getTypeDeclaration(ct);
		if (L.getCursorKind(decl) == CXCursor_UnionDecl) {
			struct union_scan u = { w, NULL, 0, 0, 0, true, 0, { 0 }, false };
			L.visitChildren(decl, union_member, &u);
			f->is_union = true;
			f->union_of_structs = u.nrecords >= 2;
			free(u.names);
		}
	}
	f->reserved = reserved_name(name);
	aligned_from_text(h, f);
	field_doc(w, c, f, name);
	return CXChildVisit_Continue;
}

static void build_struct(struct walk *w, CXCursor c, unsigned line, unsigned col)
{
	struct header *h = w->h;
	const char *name = take(h, L.getCursorSpelling(c));
	if (!*name || strchr(name, ' ') || strchr(name, '('))
		return; /* anonymous (a typedef'd struct { … } has no tag); one seen twice goes later */
	struct hstruct st = { 0 };
	st.name = name;
	st.is_union = L.getCursorKind(c) == CXCursor_UnionDecl;
	st.line = line, st.col = col;
	CXType t = L.getCursorType(c);
	long long sz = L.Type_getSizeOf(t), al = L.Type_getAlignOf(t);
	if (sz < 0 || al <= 0)
		return; /* incomplete or invalid: the compiler's error says why */
	st.size = saturate(sz);
	st.align = saturate(al);
	w->top = t;
	w->fields = NULL, w->nfields = w->afields = w->nbits = 0;
	w->kdoc = NULL, w->kdoc_len = 0;
	const char *cs;
	size_t cn;
	if (comment_above(h, line, &cs, &cn)) {
		w->kdoc = cs, w->kdoc_len = cn;
		/* "struct name - summary" or the first sentence */
		struct sbuf d = SBUF_INIT;
		const char *b = cs + 2, *e = cs + cn;
		while (b < e && (*b == '*' || isspace((unsigned char)*b)))
			b++;
		const char *eol = b;
		while (eol < e && *eol != '\n' && *eol != '@')
			eol++;
		add_comment_text(&d, b, (size_t)(eol - b));
		while (d.len && (d.buf[d.len - 1] == '/' || d.buf[d.len - 1] == '*' || d.buf[d.len - 1] == ' '))
			d.buf[--d.len] = '\0';
		const char *dash = strstr(d.buf, " - ");
		st.doc = astr(h, dash && !strncmp(d.buf, "struct ", 7) ? dash + 3 : d.buf);
		sbuf_release(&d);
	}
	L.visitChildren(c, struct_member, w);
	unsigned maxal = 1;
	for (size_t i = 0; i < w->nfields; i++) {
		if (w->fields[i].align > maxal)
			maxal = w->fields[i].align;
		if (w->fields[i].align && w->fields[i].offset % w->fields[i].align)
			st.packed = true;
	}
	st.explicit_align = st.align > maxal;
	if (st.align < maxal)
		st.packed = true;
	st.fields = arena_alloc(&h->a, sizeof(*st.fields) * (w->nfields + 1));
	if (w->nfields)
		memcpy(st.fields, w->fields, sizeof(*st.fields) * w->nfields);
	st.nfields = w->nfields;
	free(w->fields);
	w->fields = NULL;
	ALLOC_GROW(h->structs, h->nstructs + 1, w->astructs); /* header_release frees it */
	h->structs[h->nstructs++] = st;
}

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	struct walk *w = d;
	enum CXCursorKind k = L.getCursorKind(c);
	unsigned line, col;
	if (k == CXCursor_MacroDefinition) {
		if (!in_file(c, w->path, &line, &col) || L.Cursor_isMacroFunctionLike(c))
			return CXChildVisit_Continue;
		CXString s = L.getCursorSpelling(c);
		const char *n = L.getCString(s);
		for (size_t i = n ? first_cand(w, n) : w->ncand; i < w->ncand && !strcmp(w->cand[w->ord[i]], n); i++) {
			w->defined[w->ord[i]] = true;
			w->mac[w->ord[i]].line = line, w->mac[w->ord[i]].col = col;
		}
		L.disposeString(s);
	} else if (k == CXCursor_VarDecl) {
		if (!in_file(c, w->probe, NULL, NULL))
			return CXChildVisit_Continue;
		CXString s = L.getCursorSpelling(c);
		const char *n = L.getCString(s);
		unsigned long idx;
		if (n && sscanf(n, "__xsc_m_%lu", &idx) == 1 && idx < w->ncand) {
			CXEvalResult r = L.Cursor_Evaluate(c);
			if (r && L.EvalResult_getKind(r) == CXEval_Int) {
				w->have[idx] = true;
				if (L.EvalResult_isUnsignedInt(r)) {
					w->mac[idx].value = L.EvalResult_getAsUnsigned(r);
				} else {
					long long v = L.EvalResult_getAsLongLong(r);
					w->mac[idx].value = (uint64_t)v;
					w->mac[idx].negative = v < 0;
					/* (1 << 31) is INT_MIN in C, but the header means bit 31 */
					if (v == INT32_MIN)
						w->mac[idx].value = (uint32_t)v, w->mac[idx].negative = false;
				}
			}
			if (r)
				L.EvalResult_dispose(r);
		}
		L.disposeString(s);
	} else if ((k == CXCursor_StructDecl || k == CXCursor_UnionDecl) && L.isCursorDefinition(c) &&
		   !L.Cursor_isAnonymous(c) && in_file(c, w->path, &line, &col)) {
		build_struct(w, c, line, col);
	}
	return CXChildVisit_Continue;
}

static void add_diag(struct header *h, enum hdiag_sev sev, const char *rule, unsigned line, unsigned col,
		     const char *msg)
{
	h->diags = xrealloc(h->diags, sizeof(*h->diags) * (h->ndiags + 1));
	struct hdiag *d = &h->diags[h->ndiags++];
	d->sev = sev, d->rule = rule, d->line = line, d->col = col;
	d->msg = astr(h, msg);
}

/* ---- after the walk: every step linear or n log n, for headers of 20,000 structs ---- */

/* A struct defined twice (a compiler error, reported as such) counts once: its first. */
static void drop_duplicate_structs(struct header *h)
{
	header_index(h);
	bool *dup = xcalloc(h->nstructs + 1, sizeof(bool));
	bool any = false;
	for (size_t i = 1; i < h->nstructs; i++)
		if (!strcmp(h->structs[h->by_name[i]].name, h->structs[h->by_name[i - 1]].name))
			dup[h->by_name[i]] = any = true;
	size_t k = 0;
	for (size_t i = 0; any && i < h->nstructs; i++)
		if (!dup[i])
			h->structs[k++] = h->structs[i];
	if (any)
		h->nstructs = k;
	free(dup);
}

static const struct hmacro *sort_macros;

static int macro_line_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (sort_macros[x].line != sort_macros[y].line)
		return sort_macros[x].line < sort_macros[y].line ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* The comment after the value on a macro's #define line. */
static const char *macro_doc(struct header *h, const struct hmacro *m)
{
	struct sbuf d = SBUF_INIT;
	const char *ls;
	size_t ll;
	if (header_line(h, m->line, &ls, &ll))
		for (size_t q = 0; q + 1 < ll; q++)
			if (ls[q] == '/' && (ls[q + 1] == '*' || ls[q + 1] == '/')) {
				trailing_comment(h, (size_t)(ls + q - h->text), &d);
				break;
			}
	const char *r = d.len ? astr(h, d.buf) : NULL;
	sbuf_release(&d);
	return r;
}

/* Macros with an integer value, each name once, in source order. */
static void collect_macros(struct header *h, struct walk *w)
{
	size_t *ord = w->ord;
	bool *later = xcalloc(w->ncand + 1, sizeof(bool)); /* a name's second candidate */
	for (size_t i = 1; i < w->ncand; i++)
		later[ord[i]] = !strcmp(w->cand[ord[i]], w->cand[ord[i - 1]]);
	size_t alloc = 0;
	for (size_t i = 0; i < w->ncand; i++) {
		if (!w->have[i] || !w->defined[i] || later[i])
			continue;
		struct hmacro *m = PUSH(h->macros, h->nmacros, alloc);
		*m = w->mac[i];
		m->name = astr(h, w->cand[i]);
		m->doc = macro_doc(h, m);
	}
	free(later);
	size_t *pos = xcalloc(h->nmacros + 1, sizeof(*pos));
	for (size_t i = 0; i < h->nmacros; i++)
		pos[i] = i;
	sort_macros = h->macros;
	qsort(pos, h->nmacros, sizeof(*pos), macro_line_cmp);
	struct hmacro *sorted = xcalloc(h->nmacros + 1, sizeof(*sorted));
	for (size_t i = 0; i < h->nmacros; i++)
		sorted[i] = h->macros[pos[i]];
	free(h->macros), free(pos);
	h->macros = sorted;
}

/* A kernel's installed uapi tree searched before the system headers (header_set_include_dir) */
static const char *include_dir;

void header_set_include_dir(const char *dir)
{
	include_dir = dir;
}

static const char *base_name(const char *s)
{
	const char *b = strrchr(s, '/');
	b = b ? b + 1 : s;
	return *b ? b : "header.h";
}

/* clang's own include directories (its resource directory's include/), wherever the
 * installation keeps them: beside libclang, or where a distribution links them from. */
static void clang_include_dirs(glob_t *g)
{
	static const char *const where[] = { "/usr/include/clang/*/include", "/usr/lib/clang/*/include",
					     "/usr/lib/llvm-*/lib/clang/*/include", "/usr/local/lib/clang/*/include" };
	int flags = GLOB_ONLYDIR | GLOB_NOSORT;
	memset(g, 0, sizeof(*g));
	for (size_t i = 0; i < ARRAY_SIZE(where); i++, flags |= GLOB_APPEND)
		glob(where[i], flags, NULL, g);
	Dl_info di;
	char *real = dladdr(*(void **)&L.createIndex, &di) && di.dli_fname ? realpath(di.dli_fname, NULL) : NULL;
	char *sl = real ? strrchr(real, '/') : NULL;
	if (sl) {
		struct sbuf pat = SBUF_INIT;
		sbuf_addf(&pat, "%.*s/clang/*/include", (int)(sl - real), real);
		glob(pat.buf, flags, NULL, g);
		sbuf_release(&pat);
	}
	free(real);
}

/* In the parse's child, once the includes are checked and before libclang opens any: the
 * files the scan accepted, the scratch directory and the system include directories are
 * all it may read from now on (hinclude_confine). */
static int confine_reads(const struct hinclude_files *accepted, const char *dir)
{
	glob_t g;
	clang_include_dirs(&g);
	const char **dirs = xcalloc(g.gl_pathc + 3, sizeof(*dirs));
	size_t n = 0;
	if (include_dir)
		dirs[n++] = include_dir;
	dirs[n++] = "/usr/include";
	dirs[n++] = "/usr/local/include";
	for (size_t i = 0; i < g.gl_pathc; i++)
		dirs[n++] = g.gl_pathv[i];
	int r = hinclude_confine(accepted, dir, dirs, n, landlock_usable_abi());
	free(dirs);
	globfree(&g);
	return r;
}

/* A file libclang could not open for want of permission: under hinclude_confine, one the
 * include scan did not see (clang says "cannot open file 'NAME': Permission denied").
 * -1 after err() naming it, else 0. */
static int refused_include(CXTranslationUnit tu, const char *name)
{
	int r = 0;
	unsigned nd = L.getNumDiagnostics(tu);
	for (unsigned i = 0; i < nd && !r; i++) {
		CXDiagnostic dg = L.getDiagnostic(tu, i);
		CXString sp = L.getDiagnosticSpelling(dg);
		const char *m = L.getCString(sp);
		const char *q = m ? strstr(m, "': Permission denied") : NULL;
		const char *p = m ? strchr(m, '\'') : NULL;
		if (q && p && p < q)
			r = err("header '%s': an include the checks did not see was refused ('%.*s')", name,
				(int)(q - p - 1), p + 1);
		L.disposeString(sp);
		L.disposeDiagnostic(dg);
	}
	return r;
}

/* The text libclang parses: the header, then each name that may be a macro as a constant of
 * its own type, so that libclang evaluates them; w gets the names and the walk's state. */
static void make_probe(struct walk *w, struct header *h, const char *text, size_t len, const char *hpath,
		       const char *ppath, struct sbuf *probe)
{
	header_scan_macro_names(text, len, &w->cand, &w->ncand);
	sbuf_addf(probe, "#include \"%s\"\n", hpath);
	for (size_t i = 0; i < w->ncand; i++)
		sbuf_addf(probe, "static const __typeof__((%s)) __xsc_m_%zu = (%s);\n", w->cand[i], i, w->cand[i]);
	w->ord = header_order_by_name(w->cand, w->ncand);
	w->mac = xcalloc(w->ncand + 1, sizeof(*w->mac));
	w->have = xcalloc(w->ncand + 1, sizeof(bool));
	w->defined = xcalloc(w->ncand + 1, sizeof(bool));
	w->h = h;
	w->path = hpath;
	w->probe = ppath;
}

/* The kernel version of the headers parsed against (LINUX_VERSION_CODE), when known. */
static void read_kernel_version(struct header *h)
{
	char *vt;
	size_t vl;
	struct sbuf vh = SBUF_INIT;
	sbuf_addf(&vh, "%s/linux/version.h", include_dir ? include_dir : "/usr/include");
	int rv = read_file_max(vh.buf, 65536, &vt, &vl);
	sbuf_release(&vh);
	if (!rv) {
		const char *v = strstr(vt, "LINUX_VERSION_CODE");
		if (v)
			h->kernel_version = (unsigned)strtoul(v + 18, NULL, 10);
		free(vt);
	}
}

/* Where dg points (its file, line, column and offset): is it in the header (hpath) itself? */
static bool diag_at(CXDiagnostic dg, const char *hpath, CXFile *f, unsigned *line, unsigned *col, unsigned *off)
{
	*line = *col = 0;
	L.getExpansionLocation(L.getDiagnosticLocation(dg), f, line, col, off);
	CXString fn = L.getFileName(*f);
	bool ours = L.getCString(fn) && !strcmp(L.getCString(fn), hpath);
	L.disposeString(fn);
	return ours;
}

/* A diagnostic "'INC' file not found" (m): reported once, and an empty stand-in for INC
 * made under stubs. Is there a new stand-in (parse again)? */
static bool stand_in(struct header *h, CXTranslationUnit tu, CXDiagnostic dg, const char *m, const char *hpath,
		     const struct sbuf *stubs)
{
	const char *q = strstr(m, "' file not found");
	bool again = false;
	char *inc = xstrndup(m + 1, (size_t)(q - m - 1));
	CXFile f;
	unsigned line, col, off;
	bool ours = diag_at(dg, hpath, &f, &line, &col, &off);
	struct sbuf msg = SBUF_INIT, sp2 = SBUF_INIT;
	/* the name as the directive spells it: "x" or <x> */
	size_t flen = 0;
	const char *fc = L.getFileContents(tu, f, &flen);
	bool quoted = fc && off < flen && fc[off] == '"';
	sbuf_addf(&msg, "include %c%s%c not found; its declarations are missing", quoted ? '"' : '<', inc,
		  quoted ? '"' : '>');
	bool told = false;
	for (size_t k = 0; k < h->ndiags && !told; k++)
		told = !strcmp(h->diags[k].rule, "INCLUDE_NOT_FOUND") && !strcmp(h->diags[k].msg, msg.buf);
	if (!told)
		add_diag(h, HD_WARNING, "INCLUDE_NOT_FOUND", ours ? line : 0, ours ? col : 0, msg.buf);
	/* the stand-in, with its directories */
	sbuf_addf(&sp2, "%s/%s", stubs->buf, inc);
	/* none for an absolute name (no search finds it: each try would parse again) */
	if (!strstr(inc, "..") && inc[0] != '/') {
		for (char *s = sp2.buf + stubs->len + 1; *s; s++)
			if (*s == '/') {
				*s = '\0';
				mkdir(sp2.buf, 0700);
				*s = '/';
			}
		if (write_file_scratch(sp2.buf, "", 0) == 0)
			again = true;
	}
	free(inc);
	sbuf_release(&msg), sbuf_release(&sp2);
	return again;
}

/* Stand-ins for the missing includes of tu: is there a new one (parse again)? */
static bool stand_ins(struct header *h, CXTranslationUnit tu, const char *hpath, const struct sbuf *stubs)
{
	bool again = false;
	unsigned nd = L.getNumDiagnostics(tu);
	for (unsigned i = 0; i < nd; i++) {
		CXDiagnostic dg = L.getDiagnostic(tu, i);
		CXString sp = L.getDiagnosticSpelling(dg);
		const char *m = L.getCString(sp);
		if (m && m[0] == '\'' && strstr(m, "' file not found") && stand_in(h, tu, dg, m, hpath, stubs))
			again = true;
		L.disposeString(sp);
		L.disposeDiagnostic(dg);
	}
	return again;
}

/* The probe (the header and its macros) parsed, missing includes reported and stood in for
 * until none is new; NULL after err(). */
static CXTranslationUnit parse_probe(struct header *h, CXIndex idx, const char *name, const struct sbuf *ppath,
				     const struct sbuf *probe, const char *const *args, size_t nargs,
				     const struct sbuf *hpath, const struct sbuf *stubs, bool confine)
{
	CXTranslationUnit tu = NULL;
	for (int attempt = 0; attempt < 32; attempt++) {
		struct CXUnsavedFile uf = { ppath->buf, probe->buf, (unsigned long)probe->len };
		enum CXErrorCode ec = L.parseTranslationUnit2(idx, ppath->buf, args, (int)nargs, &uf, 1,
							      CXTranslationUnit_DetailedPreprocessingRecord |
								      CXTranslationUnit_SkipFunctionBodies |
								      CXTranslationUnit_KeepGoing,
							      &tu);
		if (ec == CXError_Crashed) {
			err("'%s': libclang crashed while parsing it (a libclang bug, which malformed C can set off)",
			    name);
			return NULL;
		}
		if (ec != CXError_Success || !tu) {
			err("'%s': libclang could not parse it", name);
			return NULL;
		}
		if (confine && refused_include(tu, name) < 0)
			break;
		/* missing includes: report each once, give them empty stand-ins, parse again */
		if (!stand_ins(h, tu, hpath->buf, stubs))
			return tu;
		L.disposeTranslationUnit(tu);
		tu = NULL;
	}
	if (tu)
		L.disposeTranslationUnit(tu);
	else
		err("'%s': too many missing includes", name);
	return NULL;
}

/* The compiler's errors inside the header (hpath), as diagnostics. */
static void compiler_errors(struct header *h, CXTranslationUnit tu, const char *hpath)
{
	unsigned nd = L.getNumDiagnostics(tu);
	for (unsigned i = 0; i < nd; i++) {
		CXDiagnostic dg = L.getDiagnostic(tu, i);
		enum CXDiagnosticSeverity sv = L.getDiagnosticSeverity(dg);
		if (sv >= CXDiagnostic_Error) {
			CXFile f;
			unsigned line, col, off;
			bool ours = diag_at(dg, hpath, &f, &line, &col, &off);
			CXString sp = L.getDiagnosticSpelling(dg);
			const char *m = L.getCString(sp);
			if (ours && m && !strstr(m, "file not found"))
				add_diag(h, HD_ERROR, "PARSE_ERROR", line, col, m);
			else if (m && strstr(m, "nested too deeply")) /* in an included file: a cycle */
				add_diag(h, HD_ERROR, "PARSE_ERROR", 0, 0, "#include nested too deeply: the includes form a cycle");
			L.disposeString(sp);
		}
		L.disposeDiagnostic(dg);
	}
}

static int parse(struct header *h, const char *name, const char *text, size_t len, const char *dir, bool confine)
{
	memset(h, 0, sizeof(*h));
	h->name = arena_strdup(&h->a, name);
	char *t = arena_alloc(&h->a, len + 1);
	memcpy(t, text, len);
	h->text = t, h->len = len;
	index_lines(h); /* the walk looks lines up: comments, __aligned_u64 */
	if (memchr(text, '\0', len))
		return err("'%s': not a C header (it holds NUL bytes)", name);
	if (load_clang() < 0)
		return -1;
	read_kernel_version(h);
	int ret = -1;
	struct sbuf hpath = SBUF_INIT, ppath = SBUF_INIT, stubs = SBUF_INIT, probe = SBUF_INIT, origdir = SBUF_INIT;
	struct sbuf iq = SBUF_INIT, is = SBUF_INIT, ik = SBUF_INIT;
	struct hinclude_files accepted = { 0 };
	struct walk w = { 0 };
	CXIndex idx = NULL;
	CXTranslationUnit tu = NULL;
	sbuf_addf(&hpath, "%s/%s", dir, base_name(name));
	sbuf_addf(&ppath, "%s/__xsc_probe__.c", dir);
	sbuf_addf(&stubs, "%s/stubs", dir);
	mkdir(stubs.buf, 0700);
	if (write_file_scratch(hpath.buf, text, len) < 0) {
		err("cannot write '%s': %s", hpath.buf, strerror(errno));
		goto out;
	}
	if (!fetch_is_url(name)) {
		const char *sl = strrchr(name, '/');
		if (sl)
			sbuf_add(&origdir, name, (size_t)(sl - name));
		else
			sbuf_adds(&origdir, ".");
	}
	/* what libclang will open, checked before it opens any of it; the system directories
	 * are clang's own (-v), the resource directory aside: system headers are not read */
	/* a kernel's tree (include_dir) stands before the system's; with none, /usr/include twice */
	const char *sysinc = include_dir ? include_dir : "/usr/include";
	const char *dirs[] = { origdir.len ? origdir.buf : dir, sysinc, stubs.buf, "/usr/local/include",
			       "/usr/include/x86_64-linux-gnu", "/usr/include/aarch64-linux-gnu", "/usr/include" };
	if (hinclude_check(name, dir, text, len, dirs, ARRAY_SIZE(dirs), &accepted) < 0 ||
	    (confine && confine_reads(&accepted, dir) < 0))
		goto out;
	make_probe(&w, h, text, len, hpath.buf, ppath.buf, &probe);
	idx = L.createIndex(0, 0);
	sbuf_addf(&iq, "-I%s", origdir.len ? origdir.buf : dir);
	sbuf_addf(&is, "-I%s", stubs.buf);
	sbuf_addf(&ik, "-I%s", sysinc);
	const char *args[] = { "-xc", "-std=gnu11", "-w", "-ferror-limit=0", "-fno-spell-checking",
			       iq.buf, ik.buf, "-I/usr/include", is.buf };
	tu = parse_probe(h, idx, name, &ppath, &probe, args, ARRAY_SIZE(args), &hpath, &stubs, confine);
	if (!tu)
		goto out;
	compiler_errors(h, tu, hpath.buf);
	L.visitChildren(L.getTranslationUnitCursor(tu), top_visit, &w);
	drop_duplicate_structs(h);
	header_index(h);
	collect_macros(h, &w);
	header_collect_versions(h);
	ret = 0;
out:
	if (tu)
		L.disposeTranslationUnit(tu);
	if (idx)
		L.disposeIndex(idx);
	for (size_t i = 0; i < w.ncand; i++)
		free(w.cand[i]);
	free(w.cand), free(w.mac), free(w.have), free(w.defined), free(w.fields), free(w.ord);
	sbuf_release(&hpath), sbuf_release(&ppath), sbuf_release(&stubs), sbuf_release(&probe);
	sbuf_release(&origdir), sbuf_release(&iq), sbuf_release(&is), sbuf_release(&ik);
	hinclude_files_release(&accepted);
	return ret;
}

int header_parse_in(struct header *h, const char *name, const char *text, size_t len, const char *dir,
		    bool confine)
{
	int r = parse(h, name, text, len, dir, confine);
	if (r < 0)
		header_release(h); /* nothing half-parsed is left: h is empty again */
	return r;
}

int header_parse_here(struct header *h, const char *name, const char *text, size_t len)
{
	struct sbuf tmpl = SBUF_INIT;
	sbuf_addf(&tmpl, "%s/xsc-header-XXXXXX", scratch_dir());
	memset(h, 0, sizeof(*h));
	if (!scratch_mkdtemp(tmpl.buf)) {
		int r = err("cannot make a temporary directory in '%s': %s", scratch_dir(), strerror(errno));
		sbuf_release(&tmpl);
		return r;
	}
	int r = header_parse_in(h, name, text, len, tmpl.buf, false);
	scratch_remove(tmpl.buf);
	sbuf_release(&tmpl);
	return r;
}

int header_load_clang(void) { return load_clang(); }

void header_release(struct header *h)
{
	if (!h)
		return;
	free(h->structs), free(h->versions), free(h->macros), free(h->flagsets), free(h->diags);
	free(h->line_start), free(h->by_name);
	arena_release(&h->a);
	memset(h, 0, sizeof(*h));
}

