# Run by TestShim*: prints one key=value line per property of the sandbox it
# runs in. $OUTSIDE is a directory of the host the sandbox must not write to.
echo "uid=$(id -u)"
echo "env=$(wc -c < /proc/$$/environ)"
echo "cwd=$PWD"
echo "pid=$$"
echo "hostname=$(cat /proc/sys/kernel/hostname)"
grep -E '^(CapEff|CapPrm|CapBnd|CapAmb|NoNewPrivs|Seccomp):' /proc/self/status | tr -d ' \t' | sed 's/:/=/'
echo "procs=$(ls /proc | grep -c '^[0-9]')"
if echo x > scratch.txt 2>/dev/null; then echo scratch=ok; else echo scratch=fail; fi
if echo x > lib/new.txt 2>/dev/null; then echo lib=writable; else echo lib=readonly; fi
echo "helper=$(cat lib/helper.py)"
if echo x > "$OUTSIDE/escaped.txt" 2>/dev/null; then echo outside=writable; else echo outside=readonly; fi
if [ -e "$OUTSIDE" ]; then echo visible=yes; else echo visible=no; fi
if echo x > /dev/null 2>/dev/null; then echo devnull=ok; else echo devnull=fail; fi
if head -c 1 /dev/urandom > /dev/null 2>&1; then echo urandom=ok; else echo urandom=fail; fi
if echo x 2>/dev/null > /dev/kmsg; then echo kmsg=writable; else echo kmsg=denied; fi
echo "nofile=$(ulimit -n)"
echo "as=$(ulimit -v)"
