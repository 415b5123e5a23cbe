/*
 * study_path.h - a study argument is a file path or the name of a preset,
 * found on the presets search path (workloads/searchpath.h: each
 * $FLAGSCOPE_PATH folder's presets/, $XDG_DATA_HOME/flagscope/presets, then
 * the bundled or installed presets).
 */
#ifndef FLAGSCOPE_STUDY_PATH_H
#define FLAGSCOPE_STUDY_PATH_H

struct strbuf;

/* *path (a heap string): arg itself when it names an existing file or
 * looks like one (a '/', or a name ending in .study: a missing one is
 * reported when it is loaded, under the name the user wrote), else the
 * preset of that name on the presets search path.  0, or -1 with a line in
 * err when arg is a bare name that no presets folder holds (the line says
 * where it looked and how to list the presets). */
int study_path_resolve(const char *arg, char **path, struct strbuf *err);

#endif
