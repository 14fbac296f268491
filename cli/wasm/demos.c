/* teach/demo.c in the WebAssembly build: no demos. Each demo runs real calls in a scratch
 * session of its own, which this build leaves out; cmd_demo.c refuses 'demo' when the list is
 * empty, after checking its options as the native program does. */
#include <stddef.h>
#include "teach/demo.h"

const struct demo demos[] = { { NULL, NULL, NULL, NULL } };

const struct demo *demo_find(const char *name)
{
	(void)name;
	return NULL;
}
