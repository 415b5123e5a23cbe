/*
 * oggvorbis.c - the vorbis workload's command-line front end: a WAV file to
 * Ogg Vorbis at an average bitrate (what `oggenc -b KBPS` asks libvorbisenc
 * for), and Ogg Vorbis back to a 16-bit WAV file, through the libraries
 * built in the same build (libvorbisenc, libvorbis, libvorbisfile, libogg).
 * The codec work is the libraries'; this file only moves samples.
 *
 *   oggvorbis enc KBPS IN.wav OUT.ogg   16-bit PCM WAV -> Ogg Vorbis, ABR KBPS
 *   oggvorbis dec IN.ogg OUT.wav        Ogg Vorbis -> 16-bit little-endian WAV
 *
 * The Ogg stream's serial number is fixed (1), so the same build and input
 * give the same bytes.  Exit status 0, or 1 with a message on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vorbis/vorbisenc.h>
#include <vorbis/vorbisfile.h>

#define FRAMES 1024

static void die(const char *what, const char *path)
{
	fprintf(stderr, "oggvorbis: %s: %s\n", path, what);
	exit(1);
}

static unsigned long le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (unsigned long)p[3] << 24;
}

static void put_le(unsigned char *p, unsigned long v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* Positions f at the "data" chunk of a 16-bit PCM WAV file; returns its
 * length in bytes and the channels and rate from "fmt ". */
static unsigned long wav_open(FILE *f, const char *path, int *channels, long *rate)
{
	unsigned char hdr[12], ck[8], fmt[16];
	if (fread(hdr, 1, 12, f) != 12 || memcmp(hdr, "RIFF", 4) || memcmp(hdr + 8, "WAVE", 4))
		die("not a WAV file", path);
	*channels = 0;
	while (fread(ck, 1, 8, f) == 8) {
		unsigned long len = le32(ck + 4);
		if (!memcmp(ck, "data", 4) && *channels)
			return len;
		if (!memcmp(ck, "fmt ", 4) && len >= 16) {
			if (fread(fmt, 1, 16, f) != 16)
				break;
			if (fmt[0] != 1 || fmt[1] != 0 || fmt[14] != 16)
				die("not 16-bit PCM", path);
			*channels = fmt[2] | fmt[3] << 8;
			*rate = (long)le32(fmt + 4);
			len -= 16;
		}
		if (fseek(f, (long)(len + (len & 1)), SEEK_CUR))
			break;
	}
	die("no fmt and data chunks", path);
	return 0;
}

static void write_pages(ogg_stream_state *os, FILE *out, int flush)
{
	ogg_page og;
	while (flush ? ogg_stream_flush(os, &og) : ogg_stream_pageout(os, &og)) {
		fwrite(og.header, 1, (size_t)og.header_len, out);
		fwrite(og.body, 1, (size_t)og.body_len, out);
	}
}

/* Feeds the blocks libvorbis has ready through the bitrate manager into
 * the Ogg stream. */
static void drain(vorbis_dsp_state *vd, vorbis_block *vb, ogg_stream_state *os, FILE *out)
{
	ogg_packet op;
	while (vorbis_analysis_blockout(vd, vb) == 1) {
		vorbis_analysis(vb, NULL);
		vorbis_bitrate_addblock(vb);
		while (vorbis_bitrate_flushpacket(vd, &op)) {
			ogg_stream_packetin(os, &op);
			write_pages(os, out, 0);
		}
	}
}

static void encode(long kbps, const char *in_path, const char *out_path)
{
	FILE *in = fopen(in_path, "rb"), *out;
	if (!in)
		die("cannot open", in_path);
	int ch;
	long rate;
	unsigned long left = wav_open(in, in_path, &ch, &rate);
	vorbis_info vi;
	vorbis_comment vc;
	vorbis_dsp_state vd;
	vorbis_block vb;
	ogg_stream_state os;
	ogg_packet h, hc, hcode;
	vorbis_info_init(&vi);
	if (vorbis_encode_init(&vi, ch, rate, -1, kbps * 1000, -1))
		die("libvorbisenc refuses this channel count, rate and bitrate", in_path);
	vorbis_comment_init(&vc);
	vorbis_analysis_init(&vd, &vi);
	vorbis_block_init(&vd, &vb);
	ogg_stream_init(&os, 1);
	if (!(out = fopen(out_path, "wb")))
		die("cannot create", out_path);
	vorbis_analysis_headerout(&vd, &vc, &h, &hc, &hcode);
	ogg_stream_packetin(&os, &h);
	ogg_stream_packetin(&os, &hc);
	ogg_stream_packetin(&os, &hcode);
	write_pages(&os, out, 1);

	unsigned char *pcm = malloc((size_t)FRAMES * 2 * ch);
	for (;;) {
		size_t want = left < (unsigned long)FRAMES * 2 * ch ? left : (size_t)FRAMES * 2 * ch;
		size_t frames = fread(pcm, 1, want, in) / (2 * (size_t)ch);
		left -= frames * 2 * ch;
		if (!frames) {
			vorbis_analysis_wrote(&vd, 0);
			drain(&vd, &vb, &os, out);
			break;
		}
		float **buf = vorbis_analysis_buffer(&vd, (int)frames);
		for (size_t i = 0; i < frames; i++)
			for (int c = 0; c < ch; c++) {
				const unsigned char *s = pcm + 2 * (i * ch + c);
				buf[c][i] = (short)(s[0] | s[1] << 8) / 32768.f;
			}
		vorbis_analysis_wrote(&vd, (int)frames);
		drain(&vd, &vb, &os, out);
	}
	write_pages(&os, out, 1);
	if (fclose(out))
		die("cannot write", out_path);
	free(pcm);
	fclose(in);
	ogg_stream_clear(&os);
	vorbis_block_clear(&vb);
	vorbis_dsp_clear(&vd);
	vorbis_comment_clear(&vc);
	vorbis_info_clear(&vi);
}

static void wav_header(unsigned char *h, int ch, long rate, unsigned long bytes)
{
	memcpy(h, "RIFF", 4);
	put_le(h + 4, 36 + bytes, 4);
	memcpy(h + 8, "WAVEfmt ", 8);
	put_le(h + 16, 16, 4);
	put_le(h + 20, 1, 2);
	put_le(h + 22, (unsigned long)ch, 2);
	put_le(h + 24, (unsigned long)rate, 4);
	put_le(h + 28, (unsigned long)rate * ch * 2, 4);
	put_le(h + 32, (unsigned long)ch * 2, 2);
	put_le(h + 34, 16, 2);
	memcpy(h + 36, "data", 4);
	put_le(h + 40, bytes, 4);
}

static void decode(const char *in_path, const char *out_path)
{
	OggVorbis_File vf;
	if (ov_fopen(in_path, &vf))
		die("not an Ogg Vorbis file", in_path);
	vorbis_info *vi = ov_info(&vf, -1);
	FILE *out = fopen(out_path, "wb");
	if (!out)
		die("cannot create", out_path);
	unsigned char h[44];
	wav_header(h, vi->channels, vi->rate, 0);
	fwrite(h, 1, sizeof h, out);
	char buf[8192];
	unsigned long bytes = 0;
	int section;
	long n;
	while ((n = ov_read(&vf, buf, sizeof buf, 0, 2, 1, &section)) != 0) {
		if (n < 0)
			die("corrupt stream", in_path);
		fwrite(buf, 1, (size_t)n, out);
		bytes += (unsigned long)n;
	}
	wav_header(h, vi->channels, vi->rate, bytes);
	rewind(out);
	fwrite(h, 1, sizeof h, out);
	if (fclose(out))
		die("cannot write", out_path);
	ov_clear(&vf);
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "enc") && atol(argv[2]) > 0) {
		encode(atol(argv[2]), argv[3], argv[4]);
	} else if (argc == 4 && !strcmp(argv[1], "dec")) {
		decode(argv[2], argv[3]);
	} else {
		fprintf(stderr, "usage: oggvorbis enc KBPS IN.wav OUT.ogg | oggvorbis dec IN.ogg OUT.wav\n");
		return 1;
	}
	return 0;
}
