# static/link-warnings.awk: the static link's messages (stderr of ld), less glibc's warnings on
# functions that need its shared libraries at run time when they are reached from code trax
# never runs: libtraceevent's plugin loader (dlopen; trax loads no plugins) and libcrypto's
# BIO sockets (getaddrinfo, gethostbyname; trax only hashes). Each warning is two lines, "FILE:
# in function `F':" then "(.text+0x..): warning: Using 'G' in statically linked ..."; any
# other warning, or these for another function, is printed.
/: in function `(load_plugin|BIO_lookup_ex|BIO_gethostbyname)':$/ { held = $0; next }
held != "" && /warning: Using '(dlopen|getaddrinfo|gethostbyname)' in statically linked/ {
	held = ""; next
}
held != "" { print held; held = "" }
{ print }
END { if (held != "") print held }
