# bytes that are not JSON at all (an ELF-like header)
printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\003\000>\000\001\000\000\000\300\377\n\033[31m\376\375'
