/* validate.c - see validate.h */
#include "harness/validate.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void describe_byte(struct strbuf *sb, int c)
{
	if (c < 0)
		sb_add(sb, "end of file");
	else if (isprint(c))
		sb_addf(sb, "0x%02x '%c'", c, c);
	else
		sb_addf(sb, "0x%02x", c);
}

/* f opened for path, and a regular file: else -1 with why */
static FILE *open_regular(const char *label, const char *path, struct strbuf *why)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	if (!f) {
		sb_addf(why, "%s: cannot read %s: %s", label, path, strerror_lc(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		sb_addf(why, "%s: cannot read %s: %s", label, path,
			S_ISDIR(st.st_mode) ? "it is a folder, not a file" : "not a regular file");
		fclose(f);
		return NULL;
	}
	return f;
}

/* fread that says whether it failed: a read error is never an end of file */
static int read_chunk(FILE *f, char *buf, size_t cap, size_t *n)
{
	*n = fread(buf, 1, cap, f);
	return ferror(f) ? -1 : 0;
}

int validate_files(const char *label, const char *got, const char *want, struct strbuf *why)
{
	FILE *a = open_regular(label, got, why);
	FILE *b = a ? open_regular(label, want, why) : NULL;
	if (!a || !b) {
		if (a)
			fclose(a);
		return -1;
	}
	long long off = 0;
	int ca = 0, cb = 0, rc = 0;
	char bufa[65536], bufb[65536];
	size_t na, nb;
	for (;;) {
		int ea = read_chunk(a, bufa, sizeof(bufa), &na);
		if (ea || read_chunk(b, bufb, sizeof(bufb), &nb)) {
			sb_addf(why, "%s: cannot read %s: %s", label, ea ? got : want,
				strerror_lc(errno ? errno : EIO));
			rc = -1;
			break;
		}
		size_t n = na < nb ? na : nb;
		if (memcmp(bufa, bufb, n)) {
			size_t i = 0;
			while (bufa[i] == bufb[i])
				i++;
			ca = (unsigned char)bufa[i];
			cb = (unsigned char)bufb[i];
			off += (long long)i;
			rc = 1;
			break;
		}
		off += (long long)n;
		if (na != nb) {
			ca = na > nb ? (unsigned char)bufa[n] : -1;
			cb = nb > na ? (unsigned char)bufb[n] : -1;
			rc = 1;
			break;
		}
		if (na == 0)
			break;
	}
	if (rc == 1) {
		sb_addf(why, "%s differs from the reference at byte %lld: ", label, off);
		describe_byte(why, ca);
		sb_add(why, " instead of ");
		describe_byte(why, cb);
	}
	fclose(a);
	fclose(b);
	return rc;
}

static const char *type_name(mode_t m)
{
	return S_ISREG(m) ? "a file" : S_ISDIR(m) ? "a folder" : S_ISLNK(m) ? "a symbolic link"
								  : "a special file";
}

/* The names in a folder, sorted; -1 with why when it cannot be read */
static int folder_names(const char *label, const char *dir, struct dirent ***names, int *n,
			struct strbuf *why)
{
	*n = scandir(dir, names, NULL, alphasort);
	if (*n < 0) {
		sb_addf(why, "%s: cannot read the folder %s: %s", label, dir, strerror_lc(errno));
		return -1;
	}
	return 0;
}

static void free_names(struct dirent **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static int is_dot(const char *name)
{
	return !strcmp(name, ".") || !strcmp(name, "..");
}

/* Both folders' entries, pairwise by name (the lists are sorted alike) */
static int compare_folders(const char *label, const char *got, const char *want,
			   struct strbuf *why)
{
	struct dirent **ga = NULL, **wa = NULL;
	int gn = 0, wn = 0;
	if (folder_names(label, got, &ga, &gn, why))
		return -1;
	if (folder_names(label, want, &wa, &wn, why)) {
		free_names(ga, gn);
		return -1;
	}
	int rc = 0, i = 0, k = 0;
	while (!rc && (i < gn || k < wn)) {
		if (i < gn && is_dot(ga[i]->d_name)) {
			i++;
			continue;
		}
		if (k < wn && is_dot(wa[k]->d_name)) {
			k++;
			continue;
		}
		int c = i >= gn ? 1 : k >= wn ? -1 : strcmp(ga[i]->d_name, wa[k]->d_name);
		if (c) {
			sb_addf(why, "%s/%s: %s", label, c < 0 ? ga[i]->d_name : wa[k]->d_name,
				c < 0 ? "not in the reference" : "only in the reference (not written)");
			rc = 1;
			break;
		}
		char *l = xasprintf("%s/%s", label, ga[i]->d_name);
		char *g = xasprintf("%s/%s", got, ga[i]->d_name);
		char *w = xasprintf("%s/%s", want, wa[k]->d_name);
		rc = validate_tree(l, g, w, why);
		free(l);
		free(g);
		free(w);
		i++;
		k++;
	}
	free_names(ga, gn);
	free_names(wa, wn);
	return rc;
}

static int compare_links(const char *label, const char *got, const char *want,
			 struct strbuf *why)
{
	char a[PATH_MAX], b[PATH_MAX];
	ssize_t na = readlink(got, a, sizeof(a) - 1);
	ssize_t nb = na < 0 ? -1 : readlink(want, b, sizeof(b) - 1);
	if (na < 0 || nb < 0) {
		sb_addf(why, "%s: cannot read the link %s: %s", label, na < 0 ? got : want,
			strerror_lc(errno));
		return -1;
	}
	a[na] = b[nb] = '\0';
	if (!strcmp(a, b))
		return 0;
	sb_addf(why, "%s is a link to '%s' instead of '%s'", label, a, b);
	return 1;
}

int validate_tree(const char *label, const char *got, const char *want, struct strbuf *why)
{
	struct stat gs, ws;
	if (lstat(got, &gs) && errno == ENOENT) {
		sb_addf(why, "%s: not written by the run (the reference has it)", label);
		return 1;
	}
	if (lstat(got, &gs)) {
		sb_addf(why, "%s: cannot read %s: %s", label, got, strerror_lc(errno));
		return -1;
	}
	if (lstat(want, &ws)) {
		sb_addf(why, "%s: cannot read the reference %s: %s", label, want, strerror_lc(errno));
		return -1;
	}
	if ((gs.st_mode & S_IFMT) != (ws.st_mode & S_IFMT)) {
		sb_addf(why, "%s is %s, the reference %s", label, type_name(gs.st_mode),
			type_name(ws.st_mode));
		return 1;
	}
	if (S_ISDIR(gs.st_mode))
		return compare_folders(label, got, want, why);
	if (S_ISLNK(gs.st_mode))
		return compare_links(label, got, want, why);
	if (S_ISREG(gs.st_mode))
		return validate_files(label, got, want, why);
	sb_addf(why, "%s: cannot compare %s: %s", label, got, type_name(gs.st_mode));
	return -1;
}

int validate_line_difference(const char *got, const char *want, long *line, char **got_line,
			     char **want_line)
{
	size_t glen = 0, wlen = 0;
	char *g = file_read(got, &glen), *w = file_read(want, &wlen);
	int rc = -1;
	if (g && w) {
		const char *a = g, *b = w;
		for (long n = 1; *a || *b; n++) {
			size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
			if (la != lb || memcmp(a, b, la)) {
				*line = n;
				*got_line = xstrndup(a, la);
				*want_line = xstrndup(b, lb);
				rc = 0;
				break;
			}
			a += la + (a[la] == '\n');
			b += lb + (b[lb] == '\n');
		}
	}
	free(g);
	free(w);
	return rc;
}
