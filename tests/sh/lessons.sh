# every lesson in docs/lessons is solved by its solution, docs/lessons/solutions/NN.xsc
# (lesson N --check); each has in tests/lessons a cheat that must fail at the step its
# '#! fails: step N' line names and an alternative answer that must pass; a wrong solution is
# refused naming the step and what was seen; progress is kept and resumed; --json, --solution
set -u
fail=0 n=0
for f in "$top"/docs/lessons/[0-9][0-9]-*.md; do
	num=$(basename "$f" | cut -c1-2)
	sol=$top/docs/lessons/solutions/$num.xsc
	n=$((n + 1))
	if [ ! -f "$sol" ]; then echo "FAIL lesson $num has no solution $sol"; fail=1; continue; fi
	if ! "$XSC" --data "$top/data" lesson "${num#0}" --check "$sol" >out 2>err; then
		echo "FAIL lesson $num:"; cat out err; fail=1
	fi
	grep -q "all [0-9]* steps passed" out || { echo "FAIL lesson $num: no pass line"; cat out; fail=1; }
	cheats=0 alts=0
	for c in "$top"/tests/lessons/$num-cheat-*.xsc; do
		[ -f "$c" ] || continue
		cheats=$((cheats + 1))
		step=$(sed -n '1s/^#! fails: //p' "$c")
		if "$XSC" --data "$top/data" lesson "${num#0}" --check "$c" >out 2>err; then
			echo "FAIL a cheat passed: $c"; fail=1
		elif ! grep -q "$step ('.*') not passed by" err; then
			echo "FAIL $c: not refused at $step"; cat err; fail=1
		fi
	done
	for a in "$top"/tests/lessons/$num-alt-*.xsc; do
		[ -f "$a" ] || continue
		alts=$((alts + 1))
		"$XSC" --data "$top/data" lesson "${num#0}" --check "$a" >out 2>err ||
			{ echo "FAIL an alternative was refused: $a"; cat err; fail=1; }
	done
	[ $cheats -ge 1 ] && [ $alts -ge 1 ] || { echo "FAIL lesson $num: $cheats cheats, $alts alternatives"; fail=1; }
done
[ $n -ge 8 ] || { echo "FAIL only $n lessons"; fail=1; }
# a refusal says what it saw and what it wanted
printf 'target sim 5.6\nnew clone3\ncall clone3\n' >wrong.xsc
if "$XSC" --data "$top/data" lesson 2 --check wrong.xsc >out 2>err; then echo "FAIL a wrong solution passed"; fail=1; fi
grep -q "step 1 .* not passed by 'wrong.xsc': expect errno E2BIG: clone3 returned [0-9]*, expected -1 E2BIG" err ||
	{ echo "FAIL message"; cat err; fail=1; }
printf 'target sim 6.11\nnew openat2\nsize 8192\ntarget sim 6.12\ncall openat2\ntarget sim 6.11\n' >wrong.xsc
"$XSC" --data "$top/data" lesson 3 --check wrong.xsc >out 2>err
grep -q "step 1 .* not passed by 'wrong.xsc': the call went to sim 6.12, wanted sim 6.11" err ||
	{ echo "FAIL the target's message"; cat err; fail=1; }
"$XSC" --data "$top/data" --json lesson 1 --check "$top/docs/lessons/solutions/01.xsc" >out.json 2>err &&
	python3 -c 'import json; d=json.load(open("out.json")); assert d["ok"] and d["passed"] == d["steps"]' || { echo "FAIL json"; fail=1; }
# a solution that checks itself, or starts another lesson, is refused at once
printf 'lesson 1 --check rec.xsc\n' >rec.xsc
timeout 20 "$XSC" --data "$top/data" lesson 1 --check rec.xsc >out 2>err
[ $? -eq 1 ] || { echo "FAIL a self-checking solution: exit status"; cat err; fail=1; }
grep -q "^rec.xsc:1: lesson --check cannot run inside a solution being checked ('rec.xsc')" err ||
	{ echo "FAIL a self-checking solution: message"; cat err; fail=1; }
printf 'lesson 2\nlesson stop\n' >swap.xsc
"$XSC" --data "$top/data" lesson 1 --check swap.xsc >out 2>err
grep -q "^swap.xsc:1: 'lesson' cannot run inside a solution being checked" err || { echo "FAIL lesson inside --check"; cat err; fail=1; }
# lesson N --json is JSON; --solution prints the solution the tests run
"$XSC" --data "$top/data" --json lesson 3 >out.json 2>err &&
	python3 -c 'import json; d=json.load(open("out.json")); assert d["lesson"] == 3 and len(d["steps"]) == 2 and d["steps"][0]["done_when"]' ||
	{ echo "FAIL lesson N --json"; cat out.json err; fail=1; }
"$XSC" --data "$top/data" lesson 3 --solution >out 2>err && tail -n +2 out | cmp -s - "$top/docs/lessons/solutions/03.xsc" ||
	{ echo "FAIL lesson --solution"; cat out err; fail=1; }
# progress: kept in the state directory, resumed at the step reached, listed
export XDG_STATE_HOME=$PWD/state
printf 'lesson 3\ntarget sim 6.11\nnew openat2\nsize 5000\ncall openat2\n' | "$XSC" --data "$top/data" >out 2>err
grep -q '^current 3 2$' state/xsc/lessons && grep -q '^lesson 3 1 2$' state/xsc/lessons ||
	{ echo "FAIL progress not saved"; cat state/xsc/lessons err; fail=1; }
printf 'lesson resume\ntarget sim 6.12\nnew openat2\nsize 5000\ncall openat2\n' | "$XSC" --data "$top/data" >out 2>err
grep -q 'starting at step 2 of 2' out && grep -q 'lesson 3 complete' out || { echo "FAIL resume"; cat out err; fail=1; }
"$XSC" --data "$top/data" lesson progress >out 2>err
grep -q '^   3  The page cap .* 2 of 2 steps  done$' out || { echo "FAIL lesson progress"; cat out err; fail=1; }
printf 'lesson 8 3\n' | "$XSC" --data "$top/data" >out 2>err
grep -q -- '-- step 3 of 4' out || { echo "FAIL lesson N STEP"; cat out err; fail=1; }
"$XSC" --data "$top/data" lesson 8 9 >out 2>err && { echo "FAIL a step past the end was accepted"; fail=1; }
# the pages students read show no grader's check lines, link to their neighbours and to an
# index; the teacher's page holds every solution as the tests run it
"$XSC" --data "$top/data" site -o site >out 2>err || { echo "FAIL site"; cat err; fail=1; }
grep -l 'xsc-check\|expect bytes 16 63' site/lessons/*.html && { echo "FAIL a lesson page shows the checks"; fail=1; }
grep -q 'href="02-e2big-and-einval.html"' site/lessons/03-page-cap.html &&
	grep -q 'href="04-signed-flags.html"' site/lessons/03-page-cap.html &&
	grep -q 'href="index.html"' site/lessons/03-page-cap.html || { echo "FAIL previous/next links"; fail=1; }
grep -q 'href="07-discovery.html"' site/lessons/index.html || { echo "FAIL the lessons index"; fail=1; }
grep -q 'demo vdso-counter' site/lessons/07-discovery.html || { echo "FAIL lesson 7 step 4 is empty"; fail=1; }
"$XSC" --data "$top/data" doc teacher >teacher.txt 2>err || { echo "FAIL doc teacher"; cat err; fail=1; }
for s in "$top"/docs/lessons/solutions/*.xsc; do
	while IFS= read -r line; do
		grep -qF -- "$line" teacher.txt || { echo "FAIL the teacher's page lacks '$line' of $s"; fail=1; break; }
	done <"$s"
done
exit $fail
