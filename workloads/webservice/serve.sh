#!/bin/sh
# serve.sh IN PAGE [WEBLOAD OPTIONS...] - one run of the webservice
# workload, in the run folder (the current directory): webload (built in
# the input folder IN) starts this build's shop (the FastCGI handler) and
# lighttpd on free loopback ports, in a process group of their own that
# it kills on every way out, GETs PAGE (static: IN/docroot/index.html;
# dynamic: /shop?cat=7 through FastCGI and SQLite), prints the page's
# checksum on stdout (compared with the baseline configuration's) and
# drives the load; its figures go to stderr (webload --help).
#
# In a cross-built configuration the servers start through $EMU (QEMU on
# the study's CPU model, counting their instructions; empty natively, see
# doc/recipe-format.md); this script and webload run natively.
set -e
build=$(cd "$(dirname "$0")" && pwd)
if [ "$1" = lighttpd ]; then
	# the server command webload runs, with $HTTP_PORT and $FCGI_PORT set
	cat >lighttpd.conf <<CONF
server.document-root = "$2/docroot"
server.bind = "127.0.0.1"
server.port = $HTTP_PORT
server.compat-module-load = "disable"
server.modules = ("mod_indexfile", "mod_fastcgi", "mod_staticfile")
server.max-fds = 4096
server.max-connections = 1024
index-file.names = ("index.html")
mimetype.assign = (".html" => "text/html")
fastcgi.server = ("/shop" => (("host" => "127.0.0.1", "port" => $FCGI_PORT,
                               "check-local" => "disable")))
CONF
	exec $EMU "$build/lighttpd" -D -f lighttpd.conf
fi
in=$1
case $2 in
static) path=/index.html ;;
dynamic) path='/shop?cat=7' ;;
*)
	echo "serve.sh: the page is static or dynamic, not '$2'" >&2
	exit 2
	;;
esac
shift 2
if [ -n "${EMU:-}" ]; then
	# Under emulation a rate of new connections is the emulator's, not the
	# configuration's: a rate run is a fixed load there (200 requests),
	# counted like the others (insns_per_request), and prints no max_tps.
	# Every run there has one request in flight: with more, how many
	# connections each of lighttpd's epoll waits (and accept loops) return
	# depends on timing, and so did the static page's instructions per
	# request (21.5k-26.4k over 3 runs at 16 in flight; 18.28k-18.36k at 1).
	n=$#
	while [ $n -gt 0 ]; do
		a=$1
		shift
		n=$((n - 1))
		case $a in
		--rate-find) set -- "$@" --requests 200 ;;
		--concurrency | --rate-start | --rate-factor | --rate-max | --step-seconds | --p99-max | --refine)
			shift
			n=$((n - 1))
			;;
		*) set -- "$@" "$a" ;;
		esac
	done
	set -- "$@" --concurrency 1
fi
exec "$in/webload" --server "FCGI_PORT=exec \$EMU '$build/shop' FCGI_PORT '$in/shop.db'" \
	--server "HTTP_PORT=exec '$build/serve.sh' lighttpd '$in'" "$@" "$path"
