#include "model/describe.h"
#include <stdio.h>
#include "model/xlat.h"
#include "base/banned.h"

static const char *const rule_key[DR_NRULES] = {
	[DR_WHERE] = "where", [DR_ZERO] = "zero", [DR_BELOW_VER0] = "below_ver0", [DR_MIN] = "min",
	[DR_CAP] = "cap", [DR_TAIL] = "tail", [DR_TAIL_STRUCT] = "tail_struct", [DR_WRITEBACK] = "writeback", [DR_ORDER] = "check_order",
};
static const char *const rule_label[DR_NRULES] = {
	[DR_WHERE] = "Where the size travels", [DR_ZERO] = "Size 0", [DR_BELOW_VER0] = "Below the first published size",
	[DR_MIN] = "Smallest size accepted", [DR_CAP] = "Largest size accepted",
	[DR_TAIL] = "Bytes past the kernel's size", [DR_TAIL_STRUCT] = "The kernel's size is that of", [DR_WRITEBACK] = "Write-back", [DR_ORDER] = "Order of the checks",
};

const char *size_where_name(enum size_where w)
{
	static const char *const names[] = { [SW_ARG] = "arg", [SW_FIELD] = "field", [SW_IOCTL] = "ioctl",
					     [SW_POINTER] = "pointer", [SW_NONE] = "none" };
	return (unsigned)w <= SW_NONE ? names[w] : NULL;
}

static struct describe_item *add(struct describe *d, enum describe_rule rule, const char *value, int kind)
{
	struct describe_item *it = &d->items[d->n++];
	*it = (struct describe_item){ .rule = rule, .key = rule_key[rule], .label = rule_label[rule], .value = value,
				      .kind = kind };
	return it;
}

void describe_size(const struct syscall *sc, struct describe *d)
{
	const struct size_rules *r = &sc->rules;
	d->n = 0;
	struct describe_item *where = add(d, DR_WHERE, sc->size_where == SW_IOCTL ? "_IOC_SIZE" : sc->size_name,
					  (int)sc->size_where);
	where->num = sc->size_bits;
	if (sc->size_where == SW_NONE || !sc->has_rules)
		return;
	if (r->zero.kind != SA_UNSAID)
		add(d, DR_ZERO, size_answer_name(&r->zero), (int)r->zero.kind);
	if (r->below_ver0.kind != SA_UNSAID)
		add(d, DR_BELOW_VER0, size_answer_name(&r->below_ver0), (int)r->below_ver0.kind);
	if (r->min)
		add(d, DR_MIN, NULL, 0)->num = r->min;
	if (r->cap) {
		struct describe_item *cap = add(d, DR_CAP, errno_name(r->cap_errno), 0);
		cap->num = r->cap;
		cap->since = r->cap_since;
	}
	if (r->tail != TAIL_UNSAID)
		add(d, DR_TAIL, size_tail_name(r->tail), (int)r->tail);
	if (r->tail_struct)
		add(d, DR_TAIL_STRUCT, r->tail_struct->name, 0)->num = cstruct_newest_size(r->tail_struct);
	add(d, DR_WRITEBACK, size_writeback_name(r->writeback), (int)r->writeback);
	if (r->check_order)
		add(d, DR_ORDER, r->check_order, 0);
}

const struct describe_item *describe_find(const struct describe *d, enum describe_rule rule)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->items[i].rule == rule)
			return &d->items[i];
	return NULL;
}

const char *describe_flag_value(const struct flagset *fs, const struct flag *f, char buf[24])
{
	if (fs->kind == FS_ENUM && (int64_t)f->value < 0)
		snprintf(buf, 24, "%lld", (long long)(int64_t)f->value);
	else
		snprintf(buf, 24, "%#llx", (unsigned long long)f->value);
	return buf;
}

struct describe_item describe_direction(const struct syscall *sc, const struct cstruct *st)
{
	enum fdir way = struct_direction(sc, st);
	return (struct describe_item){ .rule = DR_DIRECTION, .key = "direction", .label = "Direction",
				       .value = fdir_name(way), .kind = (int)way, .num = way != st->direction };
}
