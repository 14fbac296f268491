/* lesson: guided workshop lessons kept as Markdown (docs/lessons/NN-name.md).
 *   # Lesson title            the first level-1 heading
 *   text                      the introduction
 *   ## Step title             each step: its task in prose, then one fenced block
 *   ```xsc-check              of checks, one a line, all of which must hold:
 *   expect errno E2BIG          an 'expect' command, run quietly against the session
 *   ran size                    the learner ran a command starting with these words in this step
 *   called openat2              the command just run was a call of this syscall
 *   target sim 5.6              the target is this (or 'target live')
 *   buffer open_how             the current buffer holds this struct
 *   designed NAME               a syscall or struct of that name was designed
 *   designed STRUCT.FIELD       ... a designed struct with that field
 *   size < 64                   the current buffer's size compared (<, <=, =, >=, >)
 *   ```
 * A step with a check about a call (called, expect ok, expect errno, expect ret) judges an
 * action: it passes only on a call made during the step, every check read right after that
 * call, so the target and the buffer are the call's own and an older call counts for nothing.
 * Each lesson's solution is docs/lessons/solutions/NN.xsc (lesson --check runs it in the
 * tests; the teacher's page and 'lesson N --solution' print it).
 * This module parses and words the checks; the command layer (cmd_lesson.c) evaluates them. */
#ifndef XSC_LESSON_H
#define XSC_LESSON_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/sbuf.h"

enum lesson_check_kind { LC_EXPECT, LC_RAN, LC_CALLED, LC_TARGET, LC_BUFFER, LC_DESIGNED, LC_SIZE };

struct lesson_step {
	char *title, *task;
	char **checks;
	size_t nchecks;
	bool judges_call; /* a check is about a call: the step passes only on one */
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
/* The same for a file's text already read. */
int lesson_parse(const char *path, const char *text, struct lesson *l);
void lesson_release(struct lesson *l);
/* A check line's directive, or -1 for an unknown one. */
int lesson_check_kind(const char *check);
/* The argument of a check line: what follows its directive. */
const char *lesson_check_arg(const char *check);
/* A 'size OP N' check's comparison: is have what it asks for? */
bool lesson_size_holds(const char *check, uint64_t have);
/* A 'size OP N' check's condition in words: "below 64". */
void lesson_size_words(const char *check, struct sbuf *sb);
/* A check in words, for a student ("the call fails with E2BIG"). */
void lesson_check_words(const char *check, struct sbuf *sb);
/* A step's checks in one sentence ("Done when you call clone3 on ..."). */
void lesson_step_words(const struct lesson_step *st, struct sbuf *sb);
/* The solution of the lesson at path: DIR/solutions/NN.xsc beside it. Caller frees. */
char *lesson_solution_path(const struct lesson *l);

/* Pages for the site and 'doc' (the raw files show the grader's checks): a lesson as a
 * student reads it, with what each step waits for in words and links to its neighbours
 * (prev, next may be NULL); the index of the lessons; the teacher's page with every
 * lesson's solution and checks. Links are relative, within docs/lessons. */
void lesson_page_md(const struct lesson *l, const struct lesson *prev, const struct lesson *next, struct sbuf *md);
void lesson_index_md(const struct lesson *ls, size_t n, struct sbuf *md);
void lesson_teacher_md(const struct lesson *ls, size_t n, struct sbuf *md);
#endif
