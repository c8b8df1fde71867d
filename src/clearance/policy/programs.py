"""The option table: how the programs that matter read their command lines.

One home for the facts an option-aware rule (``"rm [-r -f] *"``, ADR 0017) needs about a
program: which options take a value, which spellings are one option (``-r`` = ``-R`` =
``--recursive``), which subcommands a program has, and which options belong to the program
rather than to its subcommand (``git -C DIR -c k=v reset --hard``). The shell analyzer reads
git's global options from here too (its folding of ``git -C r push`` to ``git push``). How an
entry is written, and how a command is parsed with it: ``clearance.policy.program_grammar``;
the tools of cloud services, backups, databases, disks and servers:
``clearance.policy.programs_services``.
"""

from __future__ import annotations

from clearance.policy.program_grammar import FLAG, VALUE, Level, Program
from clearance.policy.programs_services import SERVICE_PROGRAMS

__all__ = ["GIT_GLOBAL_FLAGS", "GIT_GLOBAL_VALUED", "PROGRAMS"]

# -- the table --------------------------------------------------------------------------------
# Sources: each program's manual page (OPTIONS), git-<sub>(1), docker(1)/kubectl reference,
# npm/pnpm/yarn/pip/uv/cargo/terraform command-line help.

_GIT_GLOBAL = (
    "-C= -c= --git-dir= --work-tree= --namespace= --config-env= --super-prefix= --list-cmds= "
    "--attr-source= --exec-path=? -p,--paginate -P,--no-pager --bare --no-replace-objects "
    "--no-lazy-fetch --no-optional-locks --no-advice --literal-pathspecs --glob-pathspecs "
    "--noglob-pathspecs --icase-pathspecs --html-path --man-path --info-path"
)
_GIT_SUBS = {
    "push": "-f,--force --force-with-lease=? --force-if-includes -d,--delete --mirror --prune "
    "--all --branches --tags -n,--dry-run -u,--set-upstream -o=,--push-option= --repo= -q -v "
    "--receive-pack=,--exec= --follow-tags --atomic --no-verify --signed=? --porcelain",
    "reset": "--hard --soft --mixed --merge --keep -q,--quiet -p,--patch -N "
    "--pathspec-from-file= --recurse-submodules=?",
    "clean": "-f,--force -d -x -X -n,--dry-run -i,--interactive -q,--quiet -e=,--exclude=",
    "checkout": "-f,--force -b= -B= --orphan= -q,--quiet -t,--track=? --no-track -l --detach "
    "-p,--patch --ours --theirs -m,--merge --conflict= --pathspec-from-file= --progress "
    "--overwrite-ignore --ignore-other-worktrees --recurse-submodules=? -U=,--unified= "
    "--inter-hunk-context=",
    "switch": "-f,--force,--discard-changes -c=,--create= -C=,--force-create= --orphan= "
    "-d,--detach -t,--track=? --no-track -m,--merge -q,--quiet --guess --no-guess "
    "--conflict= --ignore-other-worktrees --recurse-submodules=?",
    "restore": "-s=,--source= -S,--staged -W,--worktree -p,--patch -q,--quiet --ours --theirs "
    "-m,--merge --conflict= --ignore-unmerged --overlay --no-overlay --pathspec-from-file=",
    "branch": "-d,--delete -D>--delete+--force -f,--force -m,--move -M>--move+--force -c,--copy "
    "-C>--copy+--force -r,--remotes -a,--all -l,--list -u=,--set-upstream-to= "
    "--unset-upstream -v,--verbose -q,--quiet -t,--track=? --contains=? --merged=? "
    "--no-merged=? --sort= --format= --points-at= --show-current --edit-description",
    "stash": "-m=,--message= -u,--include-untracked -a,--all -k,--keep-index -p,--patch -q",
    "stash push": "-m=,--message= -u,--include-untracked -a,--all -k,--keep-index -p,--patch -q "
    "--pathspec-from-file= -S,--staged",
    "stash drop": "-q,--quiet",
    "stash clear": "",
    "stash pop": "-q,--quiet --index",
    "stash apply": "-q,--quiet --index",
    "stash list": "",
    "stash show": "-p,--patch -u,--include-untracked",
    "commit": "-m=,--message= -F=,--file= -a,--all --amend -c=,--reedit-message= "
    "-C=,--reuse-message= --fixup= --squash= --author= --date= -t=,--template= -n,--no-verify "
    "-s,--signoff -q -v -e,--edit --no-edit --allow-empty -p,--patch -S,--gpg-sign=? "
    "--cleanup= --trailer= -u,--untracked-files=? --pathspec-from-file=",
    "rm": "-r -f,--force --cached -q,--quiet -n,--dry-run --pathspec-from-file= --ignore-unmatch",
    "rebase": "-i,--interactive --onto= -x=,--exec= -s=,--strategy= -X=,--strategy-option= "
    "--root --abort --continue --skip --autosquash --autostash -f,--force-rebase",
    "merge": "-m=,--message= -F=,--file= -s=,--strategy= -X=,--strategy-option= --abort "
    "--continue --ff-only --no-ff --squash",
    "tag": "-d,--delete -f,--force -a,--annotate -m=,--message= -F=,--file= -s,--sign "
    "-u=,--local-user= -l,--list",
    "gc": "--prune=? --aggressive --auto -q,--quiet --force",
    "reflog": "--expire=? --expire-unreachable=? --all --rewrite --updateref -n,--dry-run",
    "reflog expire": "--expire=? --expire-unreachable=? --all --rewrite --updateref "
    "-n,--dry-run --stale-fix",
    "reflog delete": "--rewrite --updateref -n,--dry-run",
    "reflog drop": "--all --single-worktree",
    "reflog write": "",
    "worktree remove": "-f,--force",
    "prune": "-n,--dry-run -v,--verbose --progress --expire=",
    "worktree prune": "-n,--dry-run -v --expire=",
    "update-ref": "-d -m= --no-deref --stdin -z",
    "add": "-f,--force -A,--all -u,--update -p,--patch -n,--dry-run -N,--intent-to-add "
    "--pathspec-from-file=",
    "fetch": "--prune -p --all -f,--force --depth= --tags -t",
    "pull": "-f,--force --rebase=? -r --ff-only --no-rebase -s=,--strategy= -X=",
    "log": "-n=,--max-count= --author= --since= --until= --grep= --format= --pretty=? --oneline -p",
    "filter-branch": "-f,--force --tree-filter= --index-filter= --msg-filter= "
    "--env-filter= --subdirectory-filter= --commit-filter= --parent-filter= --tag-name-filter=",
    "cherry-pick": "-m=,--mainline= -n,--no-commit --abort --continue --skip",
    "revert": "-m=,--mainline= -n,--no-commit --abort --continue",
    "submodule": "-q,--quiet",
    "submodule deinit": "-f,--force --all",
    "submodule update": "--init --recursive --remote -f,--force --checkout --rebase --merge",
    "lfs": "",
    "lfs prune": "--dry-run -v",
    "sparse-checkout": "",
    "config": "-f=,--file= --global --system --local --worktree --unset --unset-all "
    "--get --get-all -l,--list -e,--edit --add --replace-all",
}
_DOCKER_GLOBAL = (
    "--config= -c=,--context= -D,--debug -H=,--host= -l=,--log-level= --tls --tlscacert= "
    "--tlscert= --tlskey= --tlsverify"
)
_DOCKER_RUN = (
    "-d,--detach -i,--interactive -t,--tty --rm --privileged -e=,--env= --env-file= "
    "-v=,--volume= --mount= -p=,--publish= -P,--publish-all --name= -w=,--workdir= -u=,--user= "
    "--network=,--net= --entrypoint= -h=,--hostname= -l=,--label= --cap-add= --cap-drop= "
    "--security-opt= --pid= --ipc= --userns= --device= -m=,--memory= --cpus= --platform= "
    "--pull= --restart= --init -a=,--attach="
)
_DOCKER_SUBS = {
    "run": _DOCKER_RUN,
    "create": _DOCKER_RUN,
    "exec": "-d,--detach -i,--interactive -t,--tty -e=,--env= --env-file= -u=,--user= "
    "-w=,--workdir= --privileged",
    "rm": "-f,--force -v,--volumes -l,--link",
    "rmi": "-f,--force --no-prune",
    "kill": "-s=,--signal=",
    "stop": "-t=,--time= -s=,--signal=",
    "system prune": "-a,--all -f,--force --volumes --filter=",
    "image prune": "-a,--all -f,--force --filter=",
    "container prune": "-f,--force --filter=",
    "volume prune": "-a,--all -f,--force --filter=",
    "network prune": "-f,--force --filter=",
    "builder prune": "-a,--all -f,--force --filter= --keep-storage=",
    "volume rm": "-f,--force",
    "container rm": "-f,--force -v,--volumes -l,--link",
    "image rm": "-f,--force --no-prune",
    "network rm": "-f,--force",
    "compose": "-f=,--file= -p=,--project-name= --profile= --env-file= --project-directory=",
    "compose down": "-v,--volumes --rmi= --remove-orphans -t=,--timeout=",
    "compose rm": "-f,--force -s,--stop -v",
    "compose up": "-d,--detach --build --force-recreate --remove-orphans",
    "build": "-t=,--tag= -f=,--file= --build-arg= --target= --platform= --no-cache --pull",
    "ps": "-a,--all -q,--quiet -f=,--filter= --format=",
    "logs": "-f,--follow --tail=,-n= --since=",
}
_KUBECTL_GLOBAL = (
    "-n=,--namespace= --context= --cluster= --user= --kubeconfig= -s=,--server= --token= "
    "--as= --as-group= --request-timeout= -v=,--v= --insecure-skip-tls-verify"
)
_KUBECTL_SUBS = {
    "delete": "-A,--all-namespaces --all -f=,--filename= -l=,--selector= --force "
    "--grace-period= --now --cascade=? -R,--recursive -k=,--kustomize= --wait=? "
    "-o=,--output= --field-selector= --dry-run=? -i,--interactive --ignore-not-found=?",
    "apply": "-f=,--filename= -k=,--kustomize= -R,--recursive --prune -l=,--selector= --all "
    "--force --dry-run=? --server-side -o=,--output=",
    "get": "-A,--all-namespaces -o=,--output= -l=,--selector= -w,--watch --field-selector= "
    "--show-labels",
    "drain": "--force --ignore-daemonsets --delete-emptydir-data --delete-local-data "
    "--grace-period= --timeout= --pod-selector= --disable-eviction",
    "scale": "--replicas= --all -l=,--selector= --current-replicas=",
    "exec": "-i,--stdin -t,--tty -c=,--container=",
    "replace": "-f=,--filename= --force --grace-period=",
    "rollout": "",
    "logs": "-f,--follow -c=,--container= --tail= --since=",
}
_NPM_GLOBAL = "-g,--global --prefix= -w=,--workspace= --workspaces -C= --registry= -f,--force"
_NPM_SUBS = {
    "install": "-D,--save-dev -S,--save -E,--save-exact -O,--save-optional --no-save "
    "--legacy-peer-deps --force --ignore-scripts --production --omit= --include=",
    "uninstall": "-D,--save-dev -S,--save --no-save",
    "publish": "--tag= --access= --otp= --dry-run",
    "unpublish": "--force -f",
    "cache": "",
    "cache clean": "--force -f",
    "run": "--if-present --silent -s",
    "exec": "-c=,--call= --package=",
    "ci": "--ignore-scripts --omit=",
    "audit": "--fix --force --audit-level= --omit=",
}
_PIP_GLOBAL = (
    "-v,--verbose -q,--quiet --isolated --python= --proxy= --retries= --timeout= "
    "--exists-action= --trusted-host= --cert= --client-cert= --cache-dir= --no-cache-dir "
    "--disable-pip-version-check --log= --require-virtualenv"
)
_PIP_SUBS = {
    "install": "-r=,--requirement= -c=,--constraint= -e=,--editable= -t=,--target= "
    "-U,--upgrade --force-reinstall -I,--ignore-installed --user --root= --prefix= "
    "-i=,--index-url= --extra-index-url= --no-deps --pre --break-system-packages "
    "--no-build-isolation --upgrade-strategy= --dry-run --no-index -f=,--find-links=",
    "uninstall": "-y,--yes -r=,--requirement= --root-user-action= --break-system-packages",
    "download": "-d=,--dest= -r=,--requirement=",
    "freeze": "-r=,--requirement= --all --exclude=",
    "list": "-o,--outdated -u,--uptodate --format= --user",
    "cache": "",
    "cache purge": "",
    "cache remove": "",
}
_UV_GLOBAL = (
    "-q,--quiet -v,--verbose --native-tls --offline --no-cache -n --cache-dir= --directory= "
    "--project= --config-file= --no-config --python=,-p= --color="
)
_UV_SUBS = {
    "run": "--with= --with-requirements= --isolated --no-project --env-file= --script "
    "--extra= --all-extras --package= --frozen --locked",
    "pip": "",
    "pip install": "-r=,--requirement= -c=,--constraint= -e=,--editable= -U,--upgrade "
    "--system --break-system-packages --target= --prefix= --python=,-p= "
    "-i=,--index-url= --extra-index-url= --reinstall --no-deps",
    "pip uninstall": "-r=,--requirement= --system --break-system-packages --python=,-p= "
    "--target= --prefix=",
    "add": "--dev --optional= --group= --editable -r=,--requirements= --frozen --locked",
    "remove": "--dev --optional= --group= --frozen --locked",
    "sync": "--frozen --locked --all-extras --extra= --no-dev --inexact",
    "cache": "",
    "cache clean": "",
    "cache prune": "",
    "tool": "",
    "tool install": "--with= --force -p=,--python=",
    "tool uninstall": "--all",
    "venv": "-p=,--python= --seed --prompt= --clear --allow-existing",
}
_CARGO_GLOBAL = (
    "-v,--verbose -q,--quiet --color= --locked --offline --frozen --config= -Z= -C= "
    "--manifest-path="
)
_CARGO_SUBS = {
    "build": "-p=,--package= --release -r --target= --features=,-F= --all-features --workspace "
    "-j=,--jobs= --bin= --example= --lib --tests --profile= --target-dir=",
    "test": "-p=,--package= --release -r --target= --features=,-F= --all-features --workspace "
    "-j=,--jobs= --test= --lib --no-run --no-fail-fast --profile=",
    "run": "-p=,--package= --release -r --bin= --example= --features=,-F= --target=",
    "clean": "-p=,--package= --release -r --doc --target= --target-dir= --profile= -n,--dry-run",
    "install": "--path= --git= --branch= --tag= --rev= --force -f --root= --version= "
    "--locked --features=,-F=",
    "uninstall": "-p=,--package= --bin= --root=",
    "publish": "--dry-run -n --allow-dirty --token= --registry= -p=,--package= --no-verify",
    "yank": "--version= --vers= --undo --token= --registry=",
    "add": "--dev --build --features=,-F= -p=,--package= --git= --path=",
    "remove": "--dev --build -p=,--package=",
}
_TF_COMMON = (
    "-auto-approve -input= -lock= -lock-timeout= -no-color -parallelism= -refresh= "
    "-state= -state-out= -backup= -target= -replace= -var= -var-file= -compact-warnings "
    "-json -destroy -out= -refresh-only -chdir="
)
_TF_SUBS = {
    "apply": _TF_COMMON,
    "destroy": _TF_COMMON,
    "plan": _TF_COMMON + " -detailed-exitcode",
    "import": _TF_COMMON + " -config= -allow-missing-config",
    "init": "-backend= -backend-config= -upgrade -reconfigure -migrate-state -force-copy "
    "-get= -input= -lock= -plugin-dir=",
    "state": "",
    "state rm": "-dry-run -backup= -lock= -state=",
    "state mv": "-dry-run -backup= -lock= -state= -state-out=",
    "state push": "-force -lock=",
    "workspace": "",
    "workspace delete": "-force -lock=",
    "taint": "-allow-missing -lock= -state=",
    "force-unlock": "-force",
}
_FIND = (
    "-H -L -P -D= -O= -maxdepth= -mindepth= -depth -d -xdev -mount -name= -iname= -path= "
    "-ipath= -wholename= -regex= -iregex= -regextype= -type= -xtype= -user= -group= -perm= "
    "-size= -mtime= -atime= -ctime= -mmin= -amin= -cmin= -newer= -samefile= -inum= -links= "
    "-uid= -gid= -empty -executable -readable -writable -print -print0 -printf= -fprint= "
    "-fprint0= -fprintf= -fls= -ls -prune -quit -delete -exec=; -execdir=; -ok=; -okdir=; "
    "-not -a -and -o -or -follow -noleaf -ignore_readdir_race -files0-from= -daystart "
    "-true -false -context= -fstype= -nouser -nogroup -lname= -ilname= -used="
)
_RM = (
    "-r,-R,--recursive -f,--force -i -I --interactive=? -d,--dir -v,--verbose "
    "--one-file-system --no-preserve-root --preserve-root=? --help --version"
)
_CP = (
    "-a,--archive -b --backup=? -d -f,--force -i,--interactive -H -l,--link -L,--dereference "
    "-n,--no-clobber -P,--no-dereference -p --preserve=? --no-preserve= --parents "
    "-R,-r,--recursive --remove-destination --reflink=? -s,--symbolic-link -S=,--suffix= "
    "-t=,--target-directory= -T,--no-target-directory -u,--update=? -v,--verbose -x "
    "--one-file-system --attributes-only --copy-contents --sparse= --strip-trailing-slashes"
)
_MV = (
    "-b --backup=? -f,--force -i,--interactive -n,--no-clobber -S=,--suffix= "
    "-t=,--target-directory= -T,--no-target-directory -u,--update=? -v,--verbose "
    "--strip-trailing-slashes --exchange --no-copy"
)
# rsync(1): the options that take a value, and the deletions. Every --delete-WHEN, --del and
# --delete-excluded turn deletion on as --delete does, so each stands for --delete too.
_RSYNC = (
    "--delete --delete-before>--delete+--delete-before "
    "--delete-during,--del>--delete+--delete-during --delete-delay>--delete+--delete-delay "
    "--delete-after>--delete+--delete-after --delete-excluded>--delete+--delete-excluded "
    "--delete-missing-args --remove-source-files -n,--dry-run -e=,--rsh= --rsync-path= "
    "-f=,--filter= --exclude= --include= --exclude-from= --include-from= --files-from= "
    "-T=,--temp-dir= -B=,--block-size= -M=,--remote-option= -@=,--modify-window= --backup-dir= "
    "--suffix= --compare-dest= --copy-dest= --link-dest= --chmod= --chown= --usermap= --groupmap= "
    "--timeout= --contimeout= --port= --password-file= --log-file= --log-file-format= "
    "--out-format= --bwlimit= --max-size= --min-size= --max-delete= --max-alloc= --partial-dir= "
    "--sockopts= --protocol= --iconv= --checksum-choice=,--cc= --compress-choice=,--zc= "
    "--compress-level=,--zl= --skip-compress= --info= --debug= --stop-after= --stop-at= --outbuf= "
    "--write-batch= --only-write-batch= --read-batch= --address= --early-input= --checksum-seed="
)
_DATE = (
    "-d=,--date= -f=,--file= -I,--iso-8601 -R,--rfc-email --rfc-3339= -r=,--reference= "
    "-s=,--set= -u,--utc,--universal --debug --resolution --help --version"
)
_TRUNCATE = "-c,--no-create -o,--io-blocks -r=,--reference= -s=,--size= --help --version"
_CHMOD = (
    "-R,--recursive -c,--changes -f,--silent,--quiet -v,--verbose --no-preserve-root "
    "--preserve-root --reference= --dereference -h,--no-dereference -H -L -P"
)
_CHOWN = _CHMOD + " --from="
_SED = (
    "-n,--quiet,--silent -e=,--expression= -f=,--file= -i,--in-place=? -E,-r,--regexp-extended "
    "-s,--separate -z,--null-data -l=,--line-length= -b,--binary -u,--unbuffered --posix "
    "--follow-symlinks --sandbox --debug"
)
_CURL = (
    "-X=,--request= -d=,--data= --data-binary= --data-raw= --data-urlencode= --data-ascii= "
    "--json= -F=,--form= --form-string= -H=,--header= -o=,--output= -O,--remote-name "
    "-T=,--upload-file= -u=,--user= -A=,--user-agent= -e=,--referer= -b=,--cookie= "
    "-c=,--cookie-jar= -x=,--proxy= -w=,--write-out= -K=,--config= -m=,--max-time= "
    "--connect-timeout= --retry= -D=,--dump-header= -E=,--cert= --cacert= --key= "
    "-r=,--range= -Y=,--speed-limit= -y=,--speed-time= -z=,--time-cond= -C=,--continue-at= "
    "-U=,--proxy-user= --resolve= --url= --variable= --trace= --trace-ascii= --stderr= "
    "--libcurl= --netrc-file= --limit-rate= --max-filesize= --oauth2-bearer= "
    "-s,--silent -S,--show-error -L,--location -f,--fail -k,--insecure -v,--verbose -I,--head "
    "-i,--include -G,--get -g,--globoff -N,--no-buffer -n,--netrc -q -#,--progress-bar "
    "--compressed -Z,--parallel --fail-with-body -J,--remote-header-name --remote-name-all "
    "--output-dir= --connect-to= --max-redirs= --proto= --proto-redir= --retry-delay= "
    "--retry-max-time= --interface= --dns-servers= --etag-save= --etag-compare= --hsts= "
    "--alt-svc= -Q=,--quote= -P=,--ftp-port= -t=,--telnet-option= --cert-type= --key-type= "
    "--pass= --ciphers= --capath="
)
_SSH = (
    "-4 -6 -A -a -C -f -G -g -K -k -M -N -n -q -s -T -t -V -v -X -x -Y -y -B= -b= -c= -D= -E= "
    "-e= -F= -I= -i= -J= -L= -l= -m= -O= -o= -P= -p= -Q= -R= -S= -W= -w="
)

PROGRAMS: dict[str, Program] = {
    "git": Program("git", _GIT_GLOBAL, _GIT_SUBS, abbrev=True),
    "rm": Program("rm", _RM, abbrev=True),
    "find": Program("find", _FIND, style="words"),
    "docker": Program(
        "docker", _DOCKER_GLOBAL, _DOCKER_SUBS, posix=frozenset({"run", "create", "exec"})
    ),
    "kubectl": Program(
        "kubectl", _KUBECTL_GLOBAL, _KUBECTL_SUBS, anywhere=True, posix=frozenset({"exec"})
    ),
    "npm": Program("npm", _NPM_GLOBAL, _NPM_SUBS, abbrev=True, anywhere=True),
    "pnpm": Program("pnpm", _NPM_GLOBAL, _NPM_SUBS, anywhere=True),
    "yarn": Program("yarn", _NPM_GLOBAL, _NPM_SUBS, anywhere=True),
    "pip": Program("pip", _PIP_GLOBAL, _PIP_SUBS, abbrev=True, anywhere=True),
    "uv": Program("uv", _UV_GLOBAL, _UV_SUBS, anywhere=True, posix=frozenset({"run"})),
    "cargo": Program("cargo", _CARGO_GLOBAL, _CARGO_SUBS, anywhere=True),
    "terraform": Program("terraform", "-chdir= -help -version", _TF_SUBS, style="words"),
    "chmod": Program("chmod", _CHMOD, abbrev=True),
    "chown": Program("chown", _CHOWN, abbrev=True),
    "chgrp": Program("chgrp", _CHOWN, abbrev=True),
    "cp": Program("cp", _CP, abbrev=True),
    "mv": Program("mv", _MV, abbrev=True),
    "rsync": Program("rsync", _RSYNC),
    "dd": Program("dd", style="none"),
    "truncate": Program("truncate", _TRUNCATE, abbrev=True),
    "date": Program("date", _DATE, abbrev=True),
    "sed": Program("sed", _SED, abbrev=True),
    "curl": Program("curl", _CURL),
    "ssh": Program("ssh", _SSH),
}
for _alias, _name in (("pip3", "pip"), ("tofu", "terraform"), ("gsed", "sed")):
    PROGRAMS[_alias] = PROGRAMS[_name]
PROGRAMS.update(SERVICE_PROGRAMS)  # cloud and service tools, disks, databases, servers

# git(1) OPTIONS as the shell analyzer reads them (its git folding): value-taking and flags.
_git_root = Level("git", _GIT_GLOBAL, None, False)
GIT_GLOBAL_VALUED = frozenset(
    s for s, spec in _git_root.long.items() if spec[1] == VALUE and s != "--exec-path"
) | frozenset("-" + s for s, spec in _git_root.short.items() if spec[1] == VALUE)
GIT_GLOBAL_FLAGS = (
    frozenset(s for s, spec in _git_root.long.items() if spec[1] == FLAG)
    | frozenset({"-" + s for s, spec in _git_root.short.items() if spec[1] == FLAG})
    | {"--exec-path"}
)
