# a valid catalogue padded with spaces to 10 MB: refused by size before parsing
printf '{ "flagsets": [] }\n'
head -c 10485760 /dev/zero | tr '\0' ' '
printf '\n'
