/* lesson: guided workshop lessons kept as Markdown (docs/lessons/NN-name.md).
 *   # Lesson title            the first level-1 heading
 *   text                      the introduction
 *   ## Step title             each step: its task in prose, then one fenced block
 *   ```xsc-check              of checks, one a line, all of which must hold:
 *   expect errno E2BIG          an 'expect' command, run quietly against the session
 *   ran size                    the learner ran a command starting with these words in this step
 *   called openat2              the last call was of this syscall
 *   target sim 5.6              the target is this (or 'target live')
 *   buffer open_how             the current buffer holds this struct
 *   designed NAME               a syscall or struct of that name was designed
 *   ```
 * This module parses; the command layer (cmd_lesson.c) evaluates the checks. */
#ifndef XSC_LESSON_H
#define XSC_LESSON_H
#include <stddef.h>
#include "base/sbuf.h"

struct lesson_step {
	char *title, *task;
	char **checks;
	size_t nchecks;
};

struct lesson {
	unsigned number;
	char *path, *title, *intro;
	struct lesson_step *steps;
	size_t nsteps;
};

/* The lessons directory: XSC_LESSONS, else DATA/../docs/lessons; NULL when neither is
 * known (data_dir NULL). Caller frees. */
char *lesson_dir(const char *data_dir);
/* The NN-*.md files of dir in order (heap strings, full paths); -1 (reported) when none. */
int lesson_files(const char *dir, char ***paths, size_t *n);
void lesson_files_free(char **paths, size_t n);
/* Parses a lesson file. Errors name path:line. 0 or -1. */
int lesson_load(const char *path, struct lesson *l);
void lesson_release(struct lesson *l);
/* The words of a check line's directive, for the evaluator: is it a known directive? */
int lesson_check_known(const char *check);
#endif
