# Sourced by the interleaving benchmark scripts (interleave_targets.sh,
# interleave_int8.sh): rounds that alternate which of two variants runs
# first, so drift of a shared machine hits both, and the median of each
# variant's round medians.

# median: the median of the numbers on stdin (whitespace separated).
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END{print (NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2}'; }

# interleave_rounds ROUNDS A B: calls the caller's `measure NAME` (prints one
# median in ms) for A and B once per round, A first in even rounds, prints
# "round name ms" lines and sets MEDIAN_A and MEDIAN_B.
interleave_rounds() {
  local rounds=$1 a=$2 b=$3 r n ms order
  local -A all=()
  for ((r = 0; r < rounds; r++)); do
    if ((r % 2 == 0)); then order="$a $b"; else order="$b $a"; fi
    for n in $order; do
      ms=$(measure "$n")
      echo "$r $n $ms"
      all[$n]="${all[$n]:-} $ms"
    done
  done
  MEDIAN_A=$(echo "${all[$a]}" | median)
  MEDIAN_B=$(echo "${all[$b]}" | median)
}

# interleave_many ROUNDS NAME...: like interleave_rounds for any number of
# variants; round r starts at the (r mod N)-th and goes round the list, so
# each variant runs in each position equally often over N rounds. Prints
# "round name ms" lines and sets MEDIANS[name].
declare -gA MEDIANS
interleave_many() {
  local rounds=$1 r i n ms
  shift
  local names=("$@") k=$#
  local -A all=()
  for ((r = 0; r < rounds; r++)); do
    for ((i = 0; i < k; i++)); do
      n=${names[$(((r + i) % k))]}
      ms=$(measure "$n")
      echo "$r $n $ms"
      all[$n]="${all[$n]:-} $ms"
    done
  done
  for n in "${names[@]}"; do MEDIANS[$n]=$(echo "${all[$n]}" | median); done
}
