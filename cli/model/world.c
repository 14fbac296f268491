#include "model/world.h"
#include <stdlib.h>
#include <string.h>
#include "base/util.h"
#include "base/banned.h"

const struct world_entry world_entries[WORLD_NENTRIES] = {
	[WORLD_FILE] = { "file", WE_FILE, "a small regular file (4 bytes, mode 0644)" },
	[WORLD_A] = { "a", WE_FILE, "a second regular file, for renames" },
	[WORLD_DIR] = { "dir", WE_DIR, "an empty directory" },
	[WORLD_MNT] = { "mnt", WE_DIR, "an empty directory; a namespace call mounts a private tmpfs on it" },
};

int world_entry_find(const char *name, size_t len)
{
	for (int i = 0; i < WORLD_NENTRIES; i++)
		if (strlen(world_entries[i].name) == len && !strncmp(world_entries[i].name, name, len))
			return i;
	return -1;
}

enum world_lookup world_lookup(const char *path)
{
	if (!path || *path == '/')
		return WL_UNKNOWN;
	if (!*path)
		return WL_MISSING; /* "" without AT_EMPTY_PATH */
	enum world_lookup at = WL_DIR; /* the sandbox directory itself */
	bool top = true;               /* at the sandbox, not in one of its entries */
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, "/");
		if (n == 2 && !strncmp(p, "..", 2))
			return WL_UNKNOWN;
		if (n == 1 && *p == '.' && at != WL_DIR)
			return WL_NOTDIR; /* "." is looked up in what came before: "file/." */
		if (n && !(n == 1 && *p == '.')) {
			if (at != WL_DIR)
				return WL_NOTDIR;
			int e = top ? world_entry_find(p, n) : -1; /* dir/ and mnt/ are empty */
			if (e < 0)
				return WL_MISSING;
			at = world_entries[e].type == WE_DIR ? WL_DIR : WL_FILE;
			top = false;
		}
		p += n;
		while (*p == '/')
			p++;
	}
	return at == WL_FILE && path[strlen(path) - 1] == '/' ? WL_NOTDIR : at;
}

enum world_lookup world_lookup_parent(const char *path)
{
	if (!path || *path == '/')
		return WL_UNKNOWN;
	size_t n = strlen(path);
	while (n && path[n - 1] == '/')
		n--;
	while (n && path[n - 1] != '/')
		n--;
	char *parent = xstrndup(path, n);
	enum world_lookup l = n ? world_lookup(parent) : WL_DIR;
	free(parent);
	return l == WL_FILE ? WL_NOTDIR : l;
}
