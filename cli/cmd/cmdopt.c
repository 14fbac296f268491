/* cmd_opt_next: the one option parser of the commands (getopt_long's grammar, over a
 * command's own argv, without globals, so a REPL can run it again and again). */
#include <string.h>
#include "cmd/commands.h"
#include "headers/fetch.h"
#include "base/banned.h"

static const struct cmd_opt *find_long(const struct cmd_opt *opts, const char *name, size_t len)
{
	for (const struct cmd_opt *o = opts; o->key; o++)
		if (o->name && strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	return NULL;
}

static const struct cmd_opt *find_short(const struct cmd_opt *opts, char c)
{
	for (const struct cmd_opt *o = opts; o->key; o++)
		if (o->key == (unsigned char)c && o->key < 128)
			return o;
	return NULL;
}

/* The option word w (argv[it->i]) is o; its value is after '=' (eq, long options only) or
 * the next word. */
static int take(struct cmd_opt_iter *it, const struct cmd_opt *o, const char *w, const char *eq)
{
	const char *cmd = it->s->running ? it->s->running->name : "xsc";
	it->i++;
	if (!o->arg) {
		if (eq)
			return usage_err("%s: %.*s takes no value", cmd, (int)(eq - w), w);
		it->value = NULL;
		return o->key;
	}
	if (eq) {
		it->value = eq + 1;
		return o->key;
	}
	if (it->i >= it->argc)
		return usage_err("%s: %s needs a value (%s)", cmd, w, o->arg);
	it->value = it->argv[it->i++];
	return o->key;
}

int cmd_opt_next(struct cmd_opt_iter *it, const struct cmd_opt *opts)
{
	if (it->i >= it->argc)
		return CMD_OPT_END;
	const char *w = it->argv[it->i];
	if (it->fetch && !it->ended && !session_arg_quoted(it->s, it->i)) {
		/* the fetch options (--cache DIR, --timeout MS, ...), as fetch.h parses them */
		int i = it->i, r = fetch_parse_opt(it->fetch, it->argc, it->argv, &i);
		if (r)
			return r < 0 ? r : (it->i = i + 1, cmd_opt_next(it, opts));
	}
	/* an operand: after "--", "-" alone, a quoted word, or anything after the first operand
	 * where options go only in front */
	if (it->ended || w[0] != '-' || !w[1] || session_arg_quoted(it->s, it->i)) {
		if (it->front_only)
			it->ended = true;
		it->value = it->argv[it->i++];
		return CMD_OPT_OPERAND;
	}
	if (!strcmp(w, "--")) {
		it->ended = true;
		it->i++;
		return cmd_opt_next(it, opts);
	}
	const struct cmd_opt *o = NULL;
	const char *eq = NULL;
	if (w[1] == '-') {
		eq = strchr(w, '=');
		o = find_long(opts, w + 2, eq ? (size_t)(eq - w - 2) : strlen(w + 2));
	} else if (!w[2]) {
		o = find_short(opts, w[1]);
	}
	if (!o && it->loose) {
		it->value = it->argv[it->i++];
		return CMD_OPT_OPERAND;
	}
	if (!o)
		return usage_err("%s: unknown option '%s'", it->s->running ? it->s->running->name : "xsc", w);
	return take(it, o, w, eq);
}

