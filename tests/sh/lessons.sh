# every lesson in docs/lessons is solved by tests/lessons/NN.xsc (lesson N --check), and a
# wrong solution is refused naming the step
set -u
fail=0 n=0
for f in "$top"/docs/lessons/[0-9][0-9]-*.md; do
	num=$(basename "$f" | cut -c1-2)
	sol=$top/tests/lessons/$num.xsc
	n=$((n + 1))
	if [ ! -f "$sol" ]; then echo "FAIL lesson $num has no solution $sol"; fail=1; continue; fi
	if ! "$XSC" --data "$top/data" lesson "${num#0}" --check "$sol" >out 2>err; then
		echo "FAIL lesson $num:"; cat out err; fail=1
	fi
	grep -q "all [0-9]* steps passed" out || { echo "FAIL lesson $num: no pass line"; cat out; fail=1; }
done
[ $n -ge 8 ] || { echo "FAIL only $n lessons"; fail=1; }
printf 'target sim 5.6\nnew clone3\ncall clone3\n' >wrong.xsc
if "$XSC" --data "$top/data" lesson 2 --check wrong.xsc >out 2>err; then echo "FAIL a wrong solution passed"; fail=1; fi
grep -q "step 1 .* not passed by 'wrong.xsc': 'expect errno E2BIG' does not hold" err || { echo "FAIL message"; cat err; fail=1; }
"$XSC" --data "$top/data" --json lesson 1 --check "$top/tests/lessons/01.xsc" >out.json 2>err &&
	python3 -c 'import json; d=json.load(open("out.json")); assert d["ok"] and d["passed"] == d["steps"]' || { echo "FAIL json"; fail=1; }
# a solution that checks itself is refused at once, not run until EMFILE or a stack overflow
printf 'lesson 1 --check rec.xsc\n' >rec.xsc
timeout 20 "$XSC" --data "$top/data" lesson 1 --check rec.xsc >out 2>err
[ $? -eq 1 ] || { echo "FAIL a self-checking solution: exit status"; cat err; fail=1; }
grep -q "^rec.xsc:1: lesson --check cannot run inside a solution being checked ('rec.xsc')" err ||
	{ echo "FAIL a self-checking solution: message"; cat err; fail=1; }
exit $fail
