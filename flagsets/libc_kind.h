/*
 * libc_kind.h - the C libraries a study may name: the levels of its libc
 * axis and a level's `.libc` key.  The names live here, in the model, so a
 * study is checked when it is loaded; what each library means to a build
 * (its compiler driver, how a binary shows it is linked against it) is the
 * harness's libc_ops of the same name (harness/libc.h).
 *
 * How to add a C library: add its name to libc_kinds[] (libc_kind.c) and
 * its struct libc_ops to harness/libc.c; test_study checks both agree.
 */
#ifndef FLAGSCOPE_LIBC_KIND_H
#define FLAGSCOPE_LIBC_KIND_H

/* NULL-terminated: "glibc", "musl", "dietlibc" */
extern const char *const libc_kinds[];

/* 1 when name is one of libc_kinds[] */
int libc_kind_known(const char *name);
/* "glibc musl dietlibc", for messages */
const char *libc_kind_names(void);

#endif
