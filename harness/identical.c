/* identical.c - see identical.h */
#include "harness/identical.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

/* not the program: what the compiler and linker say about the build */
static int about_the_build(const GElf_Shdr *sh)
{
	return !(sh->sh_flags & SHF_ALLOC) || sh->sh_type == SHT_NOTE;
}

static void add_section(struct strbuf *sb, const char *name, const GElf_Shdr *sh, Elf_Scn *scn)
{
	sb_addf(sb, "%s %u %llx %llx %llx\n", name, sh->sh_type,
		(unsigned long long)sh->sh_flags, (unsigned long long)sh->sh_addr,
		(unsigned long long)sh->sh_size);
	if (sh->sh_type == SHT_NOBITS)
		return;
	Elf_Data *d = elf_rawdata(scn, NULL);
	if (d && d->d_buf)
		sb_addn(sb, d->d_buf, d->d_size);
}

static int loadable_bytes(Elf *elf, struct strbuf *sb)
{
	size_t shstrndx, n;
	if (elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx) ||
	    elf_getshdrnum(elf, &n))
		return -1;
	for (size_t i = 1; i < n; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		GElf_Shdr sh;
		if (!scn || !gelf_getshdr(scn, &sh))
			return -1;
		if (about_the_build(&sh))
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		add_section(sb, name ? name : "", &sh, scn);
	}
	return 0;
}

int binary_code_hash(const char *path, char out[65])
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	struct strbuf sb = {0};
	int rc = elf && elf_kind(elf) == ELF_K_ELF ? loadable_bytes(elf, &sb) : 1;
	if (elf)
		elf_end(elf);
	close(fd);
	if (rc == 0)
		sha256_hex(sb.buf ? sb.buf : "", sb.len, out);
	else if (rc == 1)
		rc = sha256_file_hex(path, out);
	sb_release(&sb);
	return rc ? -1 : 0;
}

/* over each binary of b: its name and hash(path) */
static int build_hash(const struct build *b, int (*hash)(const char *path, char out[65]),
		      char out[65])
{
	if (b->outcome != OUTCOME_OK)
		return -1;
	struct strlist bins = {0};
	build_binaries(b, &bins);
	struct strbuf sb = {0};
	int rc = bins.n ? 0 : -1;
	for (size_t i = 0; i < bins.n && !rc; i++) {
		char *path = xasprintf("%s/%s", b->out_dir, bins.v[i]);
		char one[65];
		rc = hash(path, one);
		sb_addf(&sb, "%s %s\n", bins.v[i], one);
		free(path);
	}
	if (!rc)
		sha256_hex(sb.buf, sb.len, out);
	sb_release(&sb);
	sl_release(&bins);
	return rc;
}

int build_code_hash(const struct build *b, char out[65])
{
	return build_hash(b, binary_code_hash, out);
}

static const char *or_none(const char *s)
{
	return s ? s : "";
}

char *config_execution_key(const struct config *cfg)
{
	return xasprintf("cpu=%s\ntarget=%s\nlibc=%s\nsysroot=%s\nlink=%d\n", or_none(cfg->cpu),
			 or_none(cfg->target), or_none(cfg->libc), or_none(cfg->sysroot), cfg->link);
}

static int file_hash(const char *path, char out[65])
{
	return sha256_file_hex(path, out) ? -1 : 0;
}

int build_binary_hash(const struct build *b, char out[65])
{
	return build_hash(b, file_hash, out);
}
