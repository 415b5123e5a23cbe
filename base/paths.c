/* paths.c - see paths.h */
#include "base/paths.h"

#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

#ifndef FLAGSCOPE_SOURCE_DIR
#define FLAGSCOPE_SOURCE_DIR "."
#endif
#ifndef FLAGSCOPE_REL_DATADIR
#define FLAGSCOPE_REL_DATADIR "../share/flagscope"
#endif
#ifndef FLAGSCOPE_REL_LIBDIR
#define FLAGSCOPE_REL_LIBDIR "../lib/flagscope"
#endif

const char *paths_exe_dir(void)
{
	static char dir[PATH_MAX];
	static int done;
	if (!done) {
		done = 1;
		ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
		if (n <= 0) {
			dir[0] = 0;
		} else {
			dir[n] = 0;
			char *slash = strrchr(dir, '/');
			if (slash)
				*slash = 0;
		}
	}
	return dir[0] ? dir : NULL;
}

/* The installed data folder, canonical, when this binary sits in an
 * installed tree; NULL in a build tree.  Decided once: the binary does not
 * move while it runs. */
static const char *installed_data_dir(void)
{
	static char *data;
	static int done;
	if (!done) {
		done = 1;
		const char *exe = paths_exe_dir();
		if (exe) {
			char *p = xasprintf("%s/%s/workloads", exe, FLAGSCOPE_REL_DATADIR);
			char *real = is_dir(p) ? realpath(p, NULL) : NULL;
			if (real) {
				*strrchr(real, '/') = 0;
				data = real;
			}
			free(p);
		}
	}
	return data;
}

static const char *home_env(void)
{
	const char *h = getenv("FLAGSCOPE_HOME");
	return h && *h ? h : NULL;
}

enum paths_layout paths_layout(void)
{
	if (home_env())
		return PATHS_HOME;
	return installed_data_dir() ? PATHS_INSTALLED : PATHS_SOURCE;
}

const char *flagscope_home(void)
{
	const char *h = home_env();
	if (h)
		return h;
	const char *data = installed_data_dir();
	return data ? data : FLAGSCOPE_SOURCE_DIR;
}

char *paths_workloads_dir(void)
{
	return xasprintf("%s/workloads", flagscope_home());
}

char *paths_presets_dir(void)
{
	const char *root = flagscope_home();
	if (paths_layout() == PATHS_INSTALLED)
		return xasprintf("%s/presets", root);
	/* a home may be a source tree or an installed data folder */
	char *p = xasprintf("%s/flagsets/presets", root);
	if (paths_layout() == PATHS_HOME && !is_dir(p)) {
		char *flat = xasprintf("%s/presets", root);
		if (is_dir(flat)) {
			free(p);
			return flat;
		}
		free(flat);
	}
	return p;
}

char *paths_remote_helper(void)
{
	const char *h = home_env();
	if (h) {
		static const char *const within[] = {"harness/remote-helper/helper.c",
						     "remote-helper/helper.c"};
		for (size_t i = 0; i < ARRAY_SIZE(within); i++) {
			char *p = xasprintf("%s/%s", h, within[i]);
			if (file_exists(p))
				return p;
			free(p);
		}
	}
	const char *data = installed_data_dir();
	if (data)
		return xasprintf("%s/remote-helper/helper.c", data);
	return xstrdup(FLAGSCOPE_SOURCE_DIR "/harness/remote-helper/helper.c");
}

const char *paths_recipe_doc(void)
{
	static char *doc;
	if (!doc) {
		const char *data = paths_layout() == PATHS_INSTALLED ? installed_data_dir() : NULL;
		/* data is PREFIX/share/flagscope, the doc PREFIX/share/doc/flagscope */
		doc = data ? xasprintf("%.*s/doc/flagscope/recipe-format.md",
				       (int)(strrchr(data, '/') - data), data)
			   : xasprintf("%s/doc/recipe-format.md", flagscope_home());
	}
	return doc;
}

const char *paths_deb_src_script(void)
{
	static char *script;
	if (!script) {
		const char *data = paths_layout() == PATHS_INSTALLED ? installed_data_dir() : NULL;
		script = xasprintf("%s/scripts/deb-src.sh", data ? data : flagscope_home());
	}
	return script;
}

char *paths_installed_qemu_plugin(void)
{
	if (!installed_data_dir())
		return NULL;
	char *p = xasprintf("%s/%s/libinsncount.so", paths_exe_dir(), FLAGSCOPE_REL_LIBDIR);
	char *real = realpath(p, NULL);
	free(p);
	return real;
}

/* A folder of /tmp only this user can use: /tmp/flagscope-cache-UID when
 * it is (or can be made) a real folder of this user's, mode 0700; else a
 * fresh one of mkdtemp's (nothing cached across runs, nothing planted). */
static char *private_tmp_cache(void)
{
	char *dir = xasprintf("/tmp/flagscope-cache-%ld", (long)geteuid());
	struct stat st;
	if ((!mkdir(dir, 0700) || errno == EEXIST) && !lstat(dir, &st) && S_ISDIR(st.st_mode) &&
	    st.st_uid == geteuid() && (st.st_mode & 077) == 0)
		return dir;
	free(dir);
	char tmpl[64];
	snprintf(tmpl, sizeof(tmpl), "/tmp/flagscope-cache-%ld-XXXXXX", (long)geteuid());
	return mkdtemp(tmpl) ? xstrdup(tmpl) : xstrdup("/nonexistent/flagscope-cache");
}

/* $HOME, else the user's home in the password database; NULL when
 * neither names a folder */
static const char *home_dir(void)
{
	const char *home = getenv("HOME");
	if (home && *home)
		return home;
	struct passwd *pw = getpwuid(geteuid());
	return pw && pw->pw_dir && pw->pw_dir[0] == '/' && is_dir(pw->pw_dir) ? pw->pw_dir : NULL;
}

const char *flagscope_cache_dir(void)
{
	static char *dir;
	if (dir)
		return dir;
	const char *c = getenv("FLAGSCOPE_CACHE");
	if (c && *c)
		return dir = xstrdup(c);
	const char *x = getenv("XDG_CACHE_HOME");
	if (x && *x)
		return dir = xasprintf("%s/flagscope", x);
	/* never a folder of /tmp that others can write: the cache's status
	 * files are trusted, so a build planted there would run */
	const char *home = home_dir();
	return dir = home ? xasprintf("%s/.cache/flagscope", home) : private_tmp_cache();
}

int paths_cache_check(struct strbuf *err)
{
	const char *dir = flagscope_cache_dir();
	struct stat st;
	if (mkdir_p(dir, 0700) || stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		sb_addf(err, "%s: cannot make the build cache there: %s (set FLAGSCOPE_CACHE to a folder "
			     "of your own)",
			dir, strerror_lc(errno ? errno : ENOTDIR));
		return -1;
	}
	/* group-writable only for the user's own group (user-private groups) */
	int open_to_others = (st.st_mode & 002) || ((st.st_mode & 020) && st.st_gid != getegid());
	if (st.st_uid != geteuid() || open_to_others) {
		sb_addf(err, "%s: the build cache %s (flagscope runs the builds it finds there: set "
			     "FLAGSCOPE_CACHE to a folder only you can write)",
			dir, st.st_uid != geteuid() ? "belongs to another user" : "is writable by others");
		return -1;
	}
	return 0;
}
