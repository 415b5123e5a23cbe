/*
 * gendb.c - the webservice workload's database, made once in the input
 * folder by the recipe's [input] step (built with the system compiler and
 * the system's SQLite: it is input, not measured; SQLite's file format is
 * the same on every machine, so the MIPS builds read it too).
 *
 * usage: gendb FILE
 *   12 categories, 1200 products, 12000 orders from a fixed pseudo-random
 *   sequence (the same file every time), names with '&' and '<' so the
 *   page must escape them; integer money (cents) only, so the page cannot
 *   depend on floating-point flags.  Indexed and ANALYZEd for shop.c's
 *   query.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <unistd.h>

#define CATEGORIES 12
#define PRODUCTS 1200
#define ORDERS 12000

static const char *const syllables[] = {"ka", "lo", "mi", "ne", "ru", "sa", "to", "vi",
					"ze", "bo", "& ", "<b>", "qu", "ix", "el", "an"};

static unsigned long long lcg_state = 20081217;

static unsigned lcg(unsigned n)
{
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(lcg_state >> 33) % n;
}

static void make_name(char *buf, size_t size)
{
	size_t len = 0;
	for (unsigned k = 0, n = 2 + lcg(4); k < n && len + 4 < size; k++)
		len += (size_t)snprintf(buf + len, size - len, "%s", syllables[lcg(16)]);
}

static int exec_sql(sqlite3 *db, const char *sql)
{
	char *err = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &err) == SQLITE_OK)
		return 0;
	fprintf(stderr, "gendb: %s: %s\n", sql, err ? err : "?");
	sqlite3_free(err);
	return -1;
}

static int insert_rows(sqlite3 *db, const char *sql, int rows, int kind)
{
	sqlite3_stmt *st;
	char name[64];
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	for (int i = 1; i <= rows; i++) {
		sqlite3_bind_int(st, 1, i);
		if (kind == 0) { /* categories: id, name */
			make_name(name, sizeof(name));
			sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
		} else if (kind == 1) { /* products: id, category, name, price */
			sqlite3_bind_int(st, 2, 1 + (int)lcg(CATEGORIES));
			make_name(name, sizeof(name));
			sqlite3_bind_text(st, 3, name, -1, SQLITE_TRANSIENT);
			sqlite3_bind_int(st, 4, 99 + (int)lcg(50000));
		} else { /* orders: id, product, qty, day */
			sqlite3_bind_int(st, 2, 1 + (int)lcg(PRODUCTS));
			sqlite3_bind_int(st, 3, 1 + (int)lcg(9));
			sqlite3_bind_int(st, 4, (int)lcg(365));
		}
		if (sqlite3_step(st) != SQLITE_DONE)
			break;
		sqlite3_reset(st);
	}
	return sqlite3_finalize(st) == SQLITE_OK ? 0 : -1;
}

static int generate(sqlite3 *db)
{
	if (exec_sql(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;"
			 "CREATE TABLE categories(id INTEGER PRIMARY KEY, name TEXT);"
			 "CREATE TABLE products(id INTEGER PRIMARY KEY, category INT, name TEXT, price INT);"
			 "CREATE TABLE orders(id INTEGER PRIMARY KEY, product INT, qty INT, day INT);"))
		return -1;
	if (insert_rows(db, "INSERT INTO categories VALUES(?1, ?2)", CATEGORIES, 0) ||
	    insert_rows(db, "INSERT INTO products VALUES(?1, ?2, ?3, ?4)", PRODUCTS, 1) ||
	    insert_rows(db, "INSERT INTO orders VALUES(?1, ?2, ?3, ?4)", ORDERS, 2)) {
		fprintf(stderr, "gendb: cannot fill the database: %s\n", sqlite3_errmsg(db));
		return -1;
	}
	return exec_sql(db, "CREATE INDEX products_category ON products(category);"
			    "CREATE INDEX orders_product ON orders(product, qty); COMMIT; ANALYZE;");
}

int main(int argc, char **argv)
{
	sqlite3 *db;
	if (argc != 2) {
		fprintf(stderr, "usage: gendb FILE\n");
		return 2;
	}
	unlink(argv[1]);
	if (sqlite3_open(argv[1], &db) != SQLITE_OK || generate(db)) {
		fprintf(stderr, "gendb: %s: %s\n", argv[1], sqlite3_errmsg(db));
		return 1;
	}
	return sqlite3_close(db) == SQLITE_OK ? 0 : 1;
}
