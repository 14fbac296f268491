#include "model/outcome.h"
#include <stdlib.h>
#include <string.h>
#include "base/banned.h"

void outcome_init(struct outcome *o)
{
	memset(o, 0, sizeof(*o));
	o->extra_arg = -1;
	sbuf_init(&o->setup_error);
}

void outcome_release(struct outcome *o)
{
	free(o->before);
	free(o->after);
	free(o->extra);
	free(o->known);
	free(o->extra_known);
	for (size_t i = 0; i < o->npointed; i++)
		free(o->pointed[i]);
	sbuf_release(&o->setup_error);
	outcome_init(o);
}

void outcome_add_possible(struct outcome *o, int e)
{
	for (size_t i = 0; i < o->npossible; i++)
		if (o->possible[i] == e)
			return;
	if (o->npossible < OUTCOME_MAX_POSSIBLE)
		o->possible[o->npossible++] = e;
}
