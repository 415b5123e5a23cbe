/*
 * layer_link.c - the program each layer library is linked into whole, with
 * only the layers below it (CMakeLists.txt, flagscope_layer): it links
 * when the layer calls nothing of a higher one, and fails with an
 * undefined reference when it does.  It is never run.
 */
int main(void)
{
	return 0;
}
