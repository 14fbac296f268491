# 10000 nested arrays under a top-level key: must be refused, not overflow the stack
printf '{ "structs": '
i=0; while [ $i -lt 10000 ]; do printf '['; i=$((i + 1)); done
i=0; while [ $i -lt 10000 ]; do printf ']'; i=$((i + 1)); done
printf ' }\n'
