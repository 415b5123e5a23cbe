/*
 * searchpath.h - where workloads (NAME/recipe.ini) and presets (NAME.study)
 * are found.  Each level is a folder of workloads, first match wins:
 *
 *   study           STUDYDIR/workloads    beside the study file (workloads only)
 *   FLAGSCOPE_PATH  DIR/workloads         each DIR of $FLAGSCOPE_PATH, in order
 *   user            $XDG_DATA_HOME/flagscope/workloads (~/.local/share/...)
 *   bundled         the source tree's or $FLAGSCOPE_HOME's workloads/, or
 *   installed       PREFIX/share/flagscope/workloads (base/paths.h)
 *
 * and for presets the same with presets/ (no study level: a preset is what
 * names the study).  Every level has the same shape, so a folder of
 * $FLAGSCOPE_PATH holds workloads/ and presets/ like ~/.local/share/flagscope.
 *
 * A name found at one level and also at a later one shadows it: said once
 * per name and process on stderr ("workload 'x' from A shadows B").
 */
#ifndef FLAGSCOPE_SEARCHPATH_H
#define FLAGSCOPE_SEARCHPATH_H

#include <stddef.h>

#include "base/util.h"

enum sp_kind { SP_WORKLOADS, SP_PRESETS };
enum sp_origin { SP_STUDY, SP_PATH, SP_USER, SP_BUNDLED, SP_INSTALLED };

struct sp_level {
	char *dir; /* absolute when the folder exists; it may not */
	enum sp_origin origin;
};

struct searchpath {
	enum sp_kind kind;
	struct sp_level *levels;
	size_t n;
};

/* "study", "FLAGSCOPE_PATH", "user", "bundled", "installed" */
const char *sp_origin_name(enum sp_origin o);

/* The levels, in order, for study_file (a path, or NULL: no study level;
 * ignored for presets).  Reads the environment now.  Release with
 * searchpath_release. */
void searchpath_init(struct searchpath *sp, enum sp_kind kind, const char *study_file);
void searchpath_release(struct searchpath *sp);

/* The first level's entry for name: the recipe folder (workloads) or the
 * .study file (presets), as a heap string; NULL when no level has it (or
 * name has a '/').  *level (may be NULL) is its index in sp->levels.  Says
 * on stderr, once per name, when the entry shadows a later level's. */
char *searchpath_find(const struct searchpath *sp, const char *name, size_t *level);

/* Every name of every level, first match wins, sorted by name. */
struct sp_entry {
	char *name;
	char *path;      /* recipe folder or .study file */
	size_t level;    /* index in sp->levels */
	struct strlist shadows; /* the later levels' paths it hides */
};
int searchpath_list(const struct searchpath *sp, struct sp_entry **entries, size_t *n);
void sp_entries_free(struct sp_entry *entries, size_t n);

/* The levels' folders, for "looked in ..." messages: "A, B, C". */
char *searchpath_describe(const struct searchpath *sp);

/* Where a new recipe or preset of the user's goes (flagscope workload new):
 * the first level that is a writable folder, or that does not exist yet
 * and could be made (its nearest existing parent is writable); never the
 * bundled or installed level.  Heap string; create it with mkdir_p.  NULL
 * when none is writable. */
char *searchpath_first_writable(const struct searchpath *sp);

/* Convenience for one lookup: the recipe folder of workload name as seen
 * from study_file (or NULL), or NULL when there is none. */
char *workload_find(const char *study_file, const char *name);

/* Names of every workload the search path holds for study_file (or NULL),
 * sorted; 0 or -errno. */
int workloads_list(const char *study_file, struct strlist *names);

#endif
