# Sourced by tools/setup_aarch64.sh and tools/setup_ort_aarch64.sh: apt's
# options for resolving and downloading Debian's arm64 packages with lists,
# cache and sources of its own under ROOT and an empty dpkg status, so nothing
# of this machine's apt state is read or changed.
#
#   aarch64_apt_opts ROOT     sets the array apt_opts
aarch64_apt_opts() {
  local root=$1
  apt_opts=(
    -o APT::Architecture=arm64 -o APT::Architectures=arm64
    -o Dir::State::Lists="$root/apt/lists"
    -o Dir::State::status="$root/apt/status"
    -o Dir::Cache="$root/apt/cache"
    -o Dir::Etc::SourceList="$root/apt/sources.list"
    -o Dir::Etc::SourceParts="$root/apt/sources.list.d"
    -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
    -o Debug::NoLocking=1
  )
  # As root, apt drops to the _apt user for downloads, which cannot write
  # into this user's cache folder.
  if [ "$(id -u)" -eq 0 ]; then
    apt_opts+=(-o APT::Sandbox::User=root)
  fi
}
