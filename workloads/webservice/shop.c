/*
 * shop.c - the dynamic page: a FastCGI responder (fcgi.c) that renders a
 * shop's best sellers in one category from an SQLite database, built with
 * the configuration's flags and linked with SQLite built the same way.
 *
 * usage: shop VAR DBFILE
 *   listens on 127.0.0.1:$VAR (VAR names the variable holding the port);
 *   DBFILE is (re)generated at start: 12 categories, 1200 products, 12000
 *   orders from a fixed pseudo-random sequence, so every configuration
 *   serves the same page.  Each request (QUERY_STRING "cat=N", default 1)
 *   runs one join with grouping and ordering and renders the top 25 rows
 *   as an HTML table, names HTML-escaped.  Integer money (cents) only: the
 *   page must not depend on floating-point flags.
 * Exits 0 on SIGTERM (after the requests in hand).
 */
#include "fcgi.h"
#include "sqlite3.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
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
	fprintf(stderr, "shop: %s: %s\n", sql, err ? err : "?");
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
		fprintf(stderr, "shop: cannot fill the database: %s\n", sqlite3_errmsg(db));
		return -1;
	}
	return exec_sql(db, "CREATE INDEX products_category ON products(category);"
			    "CREATE INDEX orders_product ON orders(product, qty); COMMIT; ANALYZE;");
}

static const char page_sql[] =
	"SELECT p.id, p.name, p.price, count(o.id), coalesce(sum(o.qty), 0),"
	" coalesce(sum(o.qty * p.price), 0) AS revenue, c.name"
	" FROM products p JOIN categories c ON c.id = p.category"
	" LEFT JOIN orders o ON o.product = p.id"
	" WHERE p.category = ?1 GROUP BY p.id ORDER BY revenue DESC, p.id LIMIT 25";

static void put_escaped(struct fcgi_out *o, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fcgi_put(o, "&amp;", 5); break;
		case '<': fcgi_put(o, "&lt;", 4); break;
		case '>': fcgi_put(o, "&gt;", 4); break;
		case '"': fcgi_put(o, "&quot;", 6); break;
		default: fcgi_put(o, s, 1);
		}
	}
}

static void render(const char *query, struct fcgi_out *o, void *arg)
{
	sqlite3_stmt *st = arg;
	int cat = 1;
	if (!strncmp(query, "cat=", 4))
		cat = atoi(query + 4);
	sqlite3_reset(st);
	sqlite3_bind_int(st, 1, cat);
	fcgi_printf(o, "Content-Type: text/html\r\n\r\n<!DOCTYPE html>\n<html><head><title>"
		       "best sellers</title></head><body>\n<table>\n<tr><th>#</th><th>product</th>"
		       "<th>price</th><th>orders</th><th>items</th><th>revenue</th></tr>\n");
	long long total = 0;
	int rows = 0, rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!rows++) {
			fcgi_put(o, "<caption>", 9);
			put_escaped(o, (const char *)sqlite3_column_text(st, 6));
			fcgi_put(o, "</caption>\n", 11);
		}
		long long rev = sqlite3_column_int64(st, 5);
		int price = sqlite3_column_int(st, 2);
		fcgi_printf(o, "<tr><td>%d</td><td>", sqlite3_column_int(st, 0));
		put_escaped(o, (const char *)sqlite3_column_text(st, 1));
		fcgi_printf(o, "</td><td>%d.%02d</td><td>%d</td><td>%lld</td><td>%lld.%02lld</td></tr>\n",
			    price / 100, price % 100, sqlite3_column_int(st, 3),
			    sqlite3_column_int64(st, 4), rev / 100, rev % 100);
		total += rev;
	}
	fcgi_printf(o, "</table>\n<p>%d products, %lld.%02lld in all%s</p>\n</body></html>\n", rows,
		    total / 100, total % 100, rc == SQLITE_DONE ? "" : " (query failed)");
}

static int listen_on(const char *var)
{
	const char *port = getenv(var);
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
	struct sockaddr_in a = {.sin_family = AF_INET,
				.sin_port = htons((unsigned short)(port ? atoi(port) : 0)),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	if (!port || fd < 0) {
		fprintf(stderr, "shop: $%s is not set (the port to listen on)\n", var);
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 1024)) {
		perror("shop: bind");
		close(fd);
		return -1;
	}
	return fd;
}

int main(int argc, char **argv)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	if (argc != 3) {
		fprintf(stderr, "usage: shop VAR DBFILE (with $VAR the port to listen on)\n");
		return 2;
	}
	unlink(argv[2]);
	if (sqlite3_open(argv[2], &db) != SQLITE_OK || generate(db) ||
	    sqlite3_prepare_v2(db, page_sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "shop: %s: %s\n", argv[2], sqlite3_errmsg(db));
		return 1;
	}
	int fd = listen_on(argv[1]);
	int rc = fd < 0 || fcgi_serve(fd, render, st) ? 1 : 0;
	sqlite3_finalize(st);
	sqlite3_close(db);
	return rc;
}
