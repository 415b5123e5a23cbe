/*
 * study_path.h - a study argument is a file path or the name of a preset,
 * found on the presets search path (workloads/searchpath.h: each
 * $FLAGSCOPE_PATH folder's presets/, $XDG_DATA_HOME/flagscope/presets, then
 * the bundled or installed presets).
 */
#ifndef FLAGSCOPE_STUDY_PATH_H
#define FLAGSCOPE_STUDY_PATH_H

/* A heap string: arg itself when it names an existing file or looks like
 * one (a '/', or a name ending in .study), else the preset's path (which
 * may not exist: loading it then reports that). */
char *study_path_resolve(const char *arg);

#endif
