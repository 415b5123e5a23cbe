# input.sh - the webservice workload's input, made once in the input
# folder (the current directory) with the system's tools: webload, the load
# client (not measured: built with the system compiler), the database the
# dynamic page queries (shop.db, gendb.c), and the static
# page docroot/index.html (about 8 KiB of generated HTML, the same every
# time).
set -e
cc -O2 -o webload "$RECIPE/webload.c" "$RECIPE/group.c" "$RECIPE/http.c" -lm
cc -O2 -o gendb "$RECIPE/gendb.c" -lsqlite3
./gendb shop.db
rm gendb
mkdir -p docroot
awk 'BEGIN {
	print "<!DOCTYPE html>\n<html><head><title>static page</title></head><body>"
	print "<h1>flagscope webservice: the static page</h1>\n<ul>"
	for (i = 1; i <= 120; i++)
		printf "<li><a href=\"/shop?cat=%d\">category %d, item %d</a></li>\n", i % 12 + 1, i % 12 + 1, i
	print "</ul>\n</body></html>"
}' >docroot/index.html
