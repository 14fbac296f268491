/* jsonpos: what every part of the catalogue loader reads JSON with. A load in progress knows
 * the path from the file's root to the value it reads (push_key, push_idx, pop_step), so
 * lerr puts the first fault at that value's file:line:col, found by walking the raw text
 * (jansson keeps no positions); the typed getters read a member and report a wrong one
 * there. Only the first fault is reported: after it, every getter returns at once. */
#ifndef XSC_JSONPOS_H
#define XSC_JSONPOS_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/util.h"
#include "model/catalog.h"
#include "model/dataload.h"

/* One source file while it is being loaded. */
struct src {
	const char *name;
	const char *text;
	size_t len;
	json_t *root;
};

/* A step of the path from a file's root to the value being checked. */
struct step {
	const char *key; /* NULL: an array index */
	size_t idx;
};

/* One load of a catalogue: the catalogue it fills, the file it is in and the path to the
 * value it reads. */
struct loader {
	struct catalog *cat;
	struct arena *a;
	const struct src *src;
	const struct src *srcs; /* every file, for a check list that takes another call's checks */
	size_t nsrcs;
	struct step path[16];
	int depth;
	bool failed;
	bool at_key; /* the next error points at the key, not the value */
	size_t shift; /* the next error points this many bytes into the value (an expression's fault) */
	unsigned flags; /* CATALOG_DRAFT */
	struct catalog_fault *fault; /* NULL: errors go to err() */
};

/* The first fault, at the value the path leads to: "file:line:col: message" through err(),
 * or into L->fault; later ones are dropped. */
void lerr(struct loader *L, const char *fmt, ...) PRINTF_LIKE(2, 3);
void push_key(struct loader *L, const char *key);
void push_idx(struct loader *L, size_t idx);
void pop_step(struct loader *L);
/* "an object", "a string", ...: what a value is, for messages. */
const char *json_kind(const json_t *v);
/* Whether obj is an object whose keys are all in allowed (NULL-terminated); an unknown key
 * is reported with the nearest allowed one. */
bool check_object(struct loader *L, json_t *obj, const char *what, const char *const *allowed);
/* obj's member key, or NULL (reported when required: "WHAT has no 'KEY'"). */
json_t *get_member(struct loader *L, json_t *obj, const char *key, bool required, const char *what);
/* A string member copied into the arena (a required one must not be empty), or NULL. */
const char *get_str(struct loader *L, json_t *obj, const char *key, bool required, const char *what);
bool get_bool(struct loader *L, json_t *obj, const char *key);
/* An unsigned integer in [lo, hi] into *out; false (reported when present or required) else. */
bool get_uint(struct loader *L, json_t *obj, const char *key, bool required, const char *what, uint64_t lo,
	      uint64_t hi, uint64_t *out);
/* A kernel version string ("5.6"), 0 when absent. */
uint32_t get_kver(struct loader *L, json_t *obj, const char *key, bool required, const char *what);
json_t *get_array(struct loader *L, json_t *obj, const char *key, bool required, const char *what);
/* The index of a string member in choices (NULL-terminated); dflt when absent (dflt < 0:
 * required, 0 then). */
int get_choice(struct loader *L, json_t *obj, const char *key, const char *what, const char *const *choices, int dflt);
/* An array of strings into an arena array of *n. */
const char **get_strings(struct loader *L, json_t *obj, const char *key, const char *what, size_t *n);
/* A C integer literal: 0x.., 0.., decimal; a leading '-' only when neg_ok. */
bool parse_c_int(const char *s, bool neg_ok, uint64_t *out);
/* A file jansson could not parse, at the token it stopped on, through err(). */
void report_json_error(const struct src *src, const json_error_t *je);
#endif
