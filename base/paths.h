/*
 * paths.h - where flagscope's own files are: the bundled workloads and
 * presets, the QEMU plugin and the measuring helper's source.
 *
 * The first layout that applies wins:
 *   home       $FLAGSCOPE_HOME: a source-tree layout (workloads/,
 *              flagsets/presets/, harness/remote-helper/) or an installed
 *              data folder (workloads/, presets/, remote-helper/).  Tests
 *              use it; it replaces only the data, not the plugin.
 *   installed  the binary is PREFIX/bin/flagscope and
 *              PREFIX/share/flagscope/workloads exists (cmake --install):
 *              data under PREFIX/share/flagscope, the plugin under
 *              PREFIX/lib/flagscope.  PREFIX comes from /proc/self/exe, so a
 *              moved or copied tree works and no source tree is read.
 *   source     a build tree: the source tree the binary was built from
 *              (FLAGSCOPE_SOURCE_DIR).
 * The relative folders (bin -> share/flagscope, lib/flagscope) are fixed at
 * configure time (FLAGSCOPE_REL_DATADIR, FLAGSCOPE_REL_LIBDIR).
 */
#ifndef FLAGSCOPE_PATHS_H
#define FLAGSCOPE_PATHS_H

enum paths_layout { PATHS_HOME, PATHS_INSTALLED, PATHS_SOURCE };

enum paths_layout paths_layout(void);

/* The folder that holds the bundled workloads/: $FLAGSCOPE_HOME, the
 * installed data folder, or the source tree.  Never NULL. */
const char *flagscope_home(void);

/* Heap strings, caller frees; the folders may not exist (a home without
 * presets).  The bundled or installed workloads folder (NAME/recipe.ini
 * inside) and presets folder (NAME.study inside). */
char *paths_workloads_dir(void);
char *paths_presets_dir(void);

/* The measuring helper's C source (harness/remote-helper/helper.c in the
 * source tree): the home's copy when it has one, else the installed one,
 * else the source tree's.  Heap string; the file may be missing. */
char *paths_remote_helper(void);

/* The recipe format's documentation: PREFIX/share/doc/flagscope/recipe-format.md
 * when installed, else the source tree's (or $FLAGSCOPE_HOME's)
 * doc/recipe-format.md.  For messages that send a user to it: static
 * storage, the file may be missing (a home without it). */
const char *paths_recipe_doc(void);

/* The script that adds deb-src entries to apt's lists, for messages of a
 * failed `apt-get source`: PREFIX/share/flagscope/scripts/deb-src.sh when
 * installed, else scripts/deb-src.sh of the source tree (or
 * $FLAGSCOPE_HOME).  Static storage; the file may be missing. */
const char *paths_deb_src_script(void);

/* The installed QEMU plugin (PREFIX/lib/flagscope/libinsncount.so) when
 * this binary is installed and the file is there; else NULL (a build tree
 * uses the path compiled into harness/qemu.c).  Heap string. */
char *paths_installed_qemu_plugin(void);

/* flagscope_cache_dir() (declared in base/util.h) is defined in paths.c:
 * $FLAGSCOPE_CACHE, $XDG_CACHE_HOME/flagscope, $HOME/.cache/flagscope, the
 * password database's home/.cache/flagscope, and without any home a
 * folder of /tmp private to the user (mode 0700, owner checked), never
 * one that others can write. */

/* The build cache can be trusted: made when missing (0700), a folder
 * owned by this user and not writable by others (nor by a group other
 * than the user's own) (its builds are
 * run as they are found).  0, or -1 with "PATH: what is wrong (what to
 * do)" in err. */
struct strbuf;
int paths_cache_check(struct strbuf *err);

/* The folder of the running binary (/proc/self/exe), or NULL when Linux
 * cannot say.  Static storage. */
const char *paths_exe_dir(void);

#endif
