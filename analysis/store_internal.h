/*
 * store_internal.h - what the files of the store (store.c, store_rows.c,
 * store_baseline.c) share and nobody else needs: its write helpers.  A
 * failed write records its cause in st (store_errmsg) and returns -1.
 */
#ifndef FLAGSCOPE_STORE_INTERNAL_H
#define FLAGSCOPE_STORE_INTERNAL_H

#include "analysis/store.h"

/* Bind text/double/int parameters described by a format: 't' text,
 * 'd' double, 'i' int, 'I' sqlite3_int64, 'n' a double stored as NULL
 * when 0, 'o' a double stored as NULL when not finite (SQLite stores no
 * inf); then step once.  0, or -1 with the cause recorded. */
int store_exec(struct store *st, const char *sql, const char *fmt, ...);

/* sql as it is (no parameters): 0, or -1 with the cause recorded. */
int store_exec_plain(struct store *st, const char *sql);

/* A write of several statements: begin, and end with commit when rc is
 * 0.  A failed statement or COMMIT rolls everything back, so a row is
 * stored whole or not at all; the first cause is kept. */
int store_begin(struct store *st);
int store_end(struct store *st, int rc);

#endif
