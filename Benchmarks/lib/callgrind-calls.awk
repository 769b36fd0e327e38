# callgrind-calls.awk: from a callgrind profile (format 1, name compression
# on), the total instructions and the number of calls into each function,
# summed over its callers:
#   total IR
#   calls COUNT NAME
#   caller COUNT CALLEE <- CALLER      (only for callees matching CALLERS_OF)
# Run with -v callers_of=REGEX to list who calls the functions of interest.
function name_of(spec,    id, rest) {
	# "(12) name" defines id 12; "(12)" refers to it.
	if (match(spec, /^\([0-9]+\)/)) {
		id = substr(spec, RSTART, RLENGTH)
		rest = substr(spec, RLENGTH + 2)
		if (rest != "") names[id] = rest
		return names[id]
	}
	return spec
}
/^summary:/ { total = $2 }
/^totals:/ && !total { total = $2 }
/^fn=/ { current = name_of(substr($0, 4)); next }
/^cfn=/ { callee = name_of(substr($0, 5)); next }
/^calls=/ {
	split(substr($0, 7), c, " ")
	calls[callee] += c[1]
	if (callers_of != "" && callee ~ callers_of) via[callee " <- " current] += c[1]
	next
}
END {
	print "total", total + 0
	for (f in calls) print "calls", calls[f], f
	for (k in via) print "caller", via[k], k
}
