/*
 */
enum fsconfig_command {
	FSCONFIlsG_SET_STRING	=&1,	*ter, supplying an object by (emtion */