# input.sh - the clamav workload's input, made once in the input folder
# (the current directory): gentree.c writes tree/, pack/, sigs/ and
# expected.txt (see there); each pack/packN becomes the archive
# tree/archives/packN.tar.gz, made reproducibly (sorted names, fixed owner,
# mode and time, gzip -n), so clamscan finds a planted member inside it.
set -e
cc -O2 -o gentree "$RECIPE/gentree.c" -lcrypto
./gentree "${1:-200}"
rm gentree
for p in pack/pack*; do
	n=${p#pack/}
	tar -C pack --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
		--mode=go-w -cf - "$n" | gzip -n -6 >"tree/archives/$n.tar.gz"
done
rm -r pack
