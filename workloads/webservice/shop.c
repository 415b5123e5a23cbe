/*
 * shop.c - the dynamic page: a FastCGI responder (fcgi.c) that renders a
 * shop's best sellers in one category from an SQLite database, built with
 * the configuration's flags and linked with SQLite built the same way.
 *
 * usage: shop VAR DBFILE
 *   listens on 127.0.0.1:$VAR (VAR names the variable holding the port);
 *   DBFILE is gendb.c's database, opened read-only (made once, natively,
 *   by the input step: its making is not what a request costs, and would
 *   swamp the instruction count of a short load under QEMU).  Each request
 *   (QUERY_STRING "cat=N", default 1) runs one join with grouping and
 *   ordering and renders the top 25 rows as an HTML table, names
 *   HTML-escaped.
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
	if (sqlite3_open_v2(argv[2], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
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
