"""The option table, continued: the command-line tools of cloud services, backups, databases,
disks and servers (``clearance.policy.programs`` merges them into ``PROGRAMS``).

A rule about one of these (``"aws s3 rm [--recursive] *"``, ``"gh repo delete [] *"``,
``"restic forget [] *"``) needs to know the options that take a value before the subcommand
(``aws --profile prod s3 rm``, ``restic -r REPO forget``, ``gh -R owner/repo repo delete``), so
that the subcommand is found, and which spellings are one option (``wipefs -a`` = ``--all``).
Options a tool has beyond these are read as flags (ADR 0017): their values are then operands,
which only makes an allow harder to meet. Entries are written as in
``clearance.policy.program_grammar``.
"""

from __future__ import annotations

from clearance.policy.program_grammar import Program

__all__ = ["SERVICE_PROGRAMS"]

# Sources: each tool's reference (aws help, gcloud topic flags, az --help, gh/glab manual,
# restic/vault/rclone/azcopy documentation, psql(1), mysql(1), wipefs(8), mdadm(8), nginx -h).

_AWS_GLOBAL = (
    "--profile= --region= --output= --endpoint-url= --query= --color= --ca-bundle= "
    "--cli-read-timeout= --cli-connect-timeout= --cli-binary-format= --debug --no-verify-ssl "
    "--no-paginate --no-sign-request --no-cli-pager --cli-auto-prompt --no-cli-auto-prompt "
    "--version --help"
)
_AWS_S3_PATHS = "--include= --exclude= --quiet --only-show-errors --page-size= --request-payer=?"
_AWS_SUBS = {
    "s3": "",
    "s3 rm": "--recursive --dryrun " + _AWS_S3_PATHS,
    "s3 rb": "--force",
    "s3 sync": "--delete --dryrun --exact-timestamps --size-only --follow-symlinks "
    "--no-follow-symlinks --acl= --storage-class= --sse=? " + _AWS_S3_PATHS,
    "s3 mv": "--recursive --dryrun " + _AWS_S3_PATHS,
    "s3 cp": "--recursive --dryrun " + _AWS_S3_PATHS,
}
_GCLOUD_GLOBAL = (
    "--account= --billing-project= --configuration= --flags-file= --flatten= --format= "
    "--impersonate-service-account= --log-http --project= -q,--quiet --trace-token= "
    "--user-output-enabled --verbosity= -h,--help"
)
_AZ_GLOBAL = "--subscription= -o=,--output= --query= --debug --verbose --only-show-errors -h,--help"
_AZCOPY_GLOBAL = "--log-level= --output-type= --trusted-microsoft-suffixes="
_AZCOPY_SUBS = {
    "sync": "--delete-destination= --recursive=? --dry-run --include-pattern= "
    "--exclude-pattern= --log-level=",
    "copy": "--recursive=? --dry-run --include-pattern= --exclude-pattern= --log-level=",
    "remove": "--recursive=? --dry-run --include-pattern= --exclude-pattern= --log-level=",
}
# gh and glab accept -R/--repo on every command; `api` takes its method as -X/--method.
_FORGE_API = (
    "-X=,--method= -H=,--header= -f=,--raw-field= -F=,--field= --input= -q=,--jq= "
    "-t=,--template= -p=,--preview= --hostname= --cache= -i,--include --paginate --silent "
    "--verbose --slurp"
)
_FORGE_SUBS = {
    "api": _FORGE_API,
    "repo": "",
    "repo delete": "-y,--yes",
    "repo archive": "-y,--yes",
}
_RESTIC_GLOBAL = (
    "-r=,--repo= --repository-file= -p=,--password-file= --password-command= -o=,--option= "
    "--cache-dir= --no-cache --key-hint= --limit-upload= --limit-download= --pack-size= "
    "-q,--quiet -v,--verbose=? --json --no-lock --insecure-tls --cacert= --tls-client-cert= "
    "--retry-lock="
)
_RESTIC_SUBS = {
    "forget": "-l=,--keep-last= -H=,--keep-hourly= -d=,--keep-daily= -w=,--keep-weekly= "
    "-m=,--keep-monthly= -y=,--keep-yearly= --keep-within= --keep-tag= --host= --tag= "
    "--path= -c,--compact -g=,--group-by= -n,--dry-run --prune --unsafe-allow-remove-all "
    "--max-unused= --max-repack-size=",
    "prune": "-n,--dry-run --max-unused= --max-repack-size= --repack-cacheable-only "
    "--repack-small --unsafe-recover-no-free-space=",
    "unlock": "--remove-all",
    "cache": "--cleanup --max-age= --no-size",
    "key": "",
    "key remove": "",
}
# vault reads Go flags: one dash or two, `-name=value` or `-name value`.
_VAULT_GLOBAL = (
    "-address= -agent-address= -ca-cert= -ca-path= -client-cert= -client-key= "
    "-namespace=,-ns= -format= -header= -mfa= -tls-server-name= -tls-skip-verify -wrap-ttl= "
    "-policy-override -output-curl-string -output-policy -non-interactive -help -version"
)
_VAULT_SUBS = {
    "kv": "-mount=",
    "kv destroy": "-mount= -versions=",
    "kv delete": "-mount= -versions=",
    "kv metadata": "-mount=",
    "secrets": "",
    "secrets disable": "",
}
_RCLONE = (
    "-n,--dry-run -i,--interactive -v,--verbose -q,--quiet -P,--progress --config= "
    "--transfers= --checkers= --include= --exclude= --filter= --include-from= --exclude-from= "
    "--filter-from= --files-from= --log-file= --log-level= --bwlimit= --max-age= --min-age= "
    "--max-size= --min-size= --backup-dir= --suffix= --max-delete= --delete-before "
    "--delete-during --delete-after --delete-excluded --fast-list --track-renames"
)
_PSQL = (
    "-c=,--command= -d=,--dbname= -f=,--file= -U=,--username= -h=,--host= -p=,--port= "
    "-v=,--set=,--variable= -P=,--pset= -o=,--output= -L=,--log-file= -F=,--field-separator= "
    "-R=,--record-separator= -T=,--table-attr= -A,--no-align -t,--tuples-only -q,--quiet "
    "-X,--no-psqlrc -w,--no-password -W,--password -1,--single-transaction -e,--echo-queries "
    "-E,--echo-hidden -a,--echo-all -b,--echo-errors -n,--no-readline -s,--single-step "
    "-S,--single-line -x,--expanded -H,--html -l,--list -V,--version -z,--field-separator-zero "
    "-0,--record-separator-zero --csv"
)
_MYSQL_CONNECT = (
    "-u=,--user= -h=,--host= -P=,--port= -p=?,--password=? -S=,--socket= --protocol= "
    "--defaults-file= --defaults-extra-file= --login-path= --ssl-mode= -v,--verbose "
    "-s,--silent -f,--force -V,--version -?,--help"
)
_MYSQL = _MYSQL_CONNECT + (
    " -e=,--execute= -D=,--database= -B,--batch -N,--skip-column-names -t,--table "
    "-A,--no-auto-rehash -r,--raw -E,--vertical -X,--xml -H,--html --default-character-set="
)
_MYSQLADMIN = _MYSQL_CONNECT + " -i=,--sleep= -c=,--count= -w=,--wait=?"
_WIPEFS = (
    "-a,--all -b,--backup=? -f,--force -i,--noheadings -J,--json -n,--no-act -O=,--output= "
    "-o=,--offset= -p,--parsable -q,--quiet -t=,--types= --lock=? -h,--help -V,--version"
)
_MDADM = (
    "-A,--assemble -B,--build -C,--create -F,--monitor,--follow -G,--grow -I,--incremental "
    "--auto-detect -D,--detail -E,--examine -Q,--query -X,--examine-bitmap -S,--stop "
    "-o,--readonly -w,--readwrite -a,--add --re-add -r,--remove -f,--fail,--set-faulty "
    "--zero-superblock --wait-clean -l=,--level= -n=,--raid-devices= -x=,--spare-devices= "
    "-c=,--chunk= -z=,--size= -b=,--bitmap= -e=,--metadata= -N=,--name= -R,--run "
    "-v,--verbose -q,--quiet -s,--scan --force -h,--help -V,--version"
)
_BORG = (
    "-r=,--repo= --remote-path= --rsh= --lock-wait= --umask= --debug-topic= "
    "-v,--verbose,--info --debug --critical --warning --error -p,--progress --log-json "
    "--show-version --show-rc --bypass-lock"
)
_VELERO = (
    "-n=,--namespace= --kubeconfig= --kubecontext= --features= --colorized=? -v= "
    "--add_dir_header --alsologtostderr --log_dir= --logtostderr"
)
_RABBITMQCTL = "-n=,--node= -p=,--vhost= -q,--quiet -s,--silent -t=,--timeout= -l,--longnames"
_MC = (
    "-C=,--config-dir= --json -q,--quiet --debug --insecure --no-color --disable-pager "
    "--limit-upload= --limit-download= --resolve= --custom-header=,-H="
)
# httpie: METHOD URL [ITEM…]; the method is the first operand when given.
_HTTPIE = (
    "-a=,--auth= -A=,--auth-type= --session= --session-read-only= -o=,--output= -p=,--print= "
    "-P=,--history-print= -v,--verbose -h,--headers -b,--body -f,--form -j,--json "
    "-m,--multipart --boundary= --raw= -x,--compress -d,--download -c,--continue -F,--follow "
    "--max-redirects= --timeout= --verify= --cert= --cert-key= --ssl= --proxy= "
    "-I,--ignore-stdin -S,--stream -q,--quiet --pretty= -s=,--style= --check-status --offline"
)
_SCP = "-3 -4 -6 -A -B -C -O -p -q -R -r -s -T -v -c= -D= -F= -i= -J= -l= -o= -P= -S= -X="
_NGINX = "-s= -c= -p= -g= -e= -t -T -q -v -V -h -?"

SERVICE_PROGRAMS: dict[str, Program] = {
    "aws": Program("aws", _AWS_GLOBAL, _AWS_SUBS, anywhere=True),
    "gcloud": Program("gcloud", _GCLOUD_GLOBAL, anywhere=True),
    "az": Program("az", _AZ_GLOBAL, anywhere=True),
    "azcopy": Program("azcopy", _AZCOPY_GLOBAL, _AZCOPY_SUBS, anywhere=True),
    "gh": Program("gh", "-R=,--repo= --help --version", _FORGE_SUBS, anywhere=True),
    "glab": Program("glab", "-R=,--repo= --help --version", _FORGE_SUBS, anywhere=True),
    "restic": Program("restic", _RESTIC_GLOBAL, _RESTIC_SUBS, anywhere=True),
    "vault": Program("vault", _VAULT_GLOBAL, _VAULT_SUBS, style="words", anywhere=True),
    "rclone": Program("rclone", _RCLONE),
    "borg": Program("borg", _BORG, anywhere=True),
    "velero": Program("velero", _VELERO, anywhere=True),
    "rabbitmqctl": Program("rabbitmqctl", _RABBITMQCTL, anywhere=True),
    "mc": Program("mc", _MC, anywhere=True),
    "http": Program("http", _HTTPIE),
    "psql": Program("psql", _PSQL, abbrev=True),
    "mysql": Program("mysql", _MYSQL, abbrev=True),
    "mysqladmin": Program("mysqladmin", _MYSQLADMIN, abbrev=True),
    "wipefs": Program("wipefs", _WIPEFS, abbrev=True),
    "mdadm": Program("mdadm", _MDADM, abbrev=True),
    "scp": Program("scp", _SCP),
    "nginx": Program("nginx", _NGINX),
}
for _alias, _name in (("mariadb", "mysql"), ("https", "http")):
    SERVICE_PROGRAMS[_alias] = SERVICE_PROGRAMS[_name]
