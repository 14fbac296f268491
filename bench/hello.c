/* The start-up reference: a C hello-world linked against readline only. */
#include <readline/readline.h>
#include <stdio.h>

int main(void)
{
	/* reference readline so the link keeps it, as xsc's does */
	if (rl_readline_name == NULL)
		puts("");
	puts("hello");
	return 0;
}
