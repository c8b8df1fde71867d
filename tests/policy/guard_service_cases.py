"""The guard's table, continued: deleting what lives outside the project.

Cloud resources, backups, databases, disks, remote machines, code hosting, web APIs and the
services an agent reaches with their own command-line tools (the "Services, clouds and
machines" sections of ``examples/policies/guard.jsonc``). Each class lists destructive lines,
stopped (denied where nothing brings the data back, asked about where it depends on which
resource it is), and benign twins that look alike and run unattended. tests/policy/test_guard.py
holds the guard to it with ``tests/policy/guard_cases.py``.
"""

from __future__ import annotations

from guard_cases import ALLOW, ASK, DENY, Case, each

_SYNC = "a sync deletes at the destination what the source lacks; a dry run only lists it"


def _cloud() -> list[Case]:
    g = "cloud storage"
    return [
        *each(
            g,
            [
                "aws s3 rm s3://bucket/key",
                "aws s3 rb s3://bucket",
                "aws s3api delete-object --bucket b --key k",
                "aws --profile prod s3api delete-bucket --bucket b",
                "aws ec2 terminate-instances --instance-ids i-1",
                "aws sqs purge-queue --queue-url https://sqs.example/q",
                "aws secretsmanager put-secret-value --secret-id s --secret-string x",
                "gcloud storage buckets delete gs://bucket",
                "gcloud --project=p container images delete gcr.io/p/img",
                "az storage blob delete -c c -n blob",
                "azcopy sync ./a https://x.blob.core.windows.net/c --delete-destination true",
                "azcopy sync --delete-destination=true ./a https://x.blob.core.windows.net/c",
                "gsutil rm gs://bucket/file",
                "mc rb myminio/bucket",
                "mc --config-dir /cfg rm myminio/bucket/file",
            ],
            ASK,
        ),
        *each(g, ["aws s3 sync ./site s3://bucket --delete"], ASK, _SYNC),
        *each(
            g,
            [
                "aws s3 rm s3://bucket --recursive",
                "aws --region eu-west-1 s3 rm --recursive s3://bucket/path",
                "aws s3 rb s3://bucket --force",
                "aws rds delete-db-instance --db-instance-identifier prod",
                "aws rds delete-db-cluster-snapshot --db-cluster-snapshot-identifier s",
                "aws dynamodb delete-table --table-name orders",
                "gsutil -m rm -r gs://bucket",
                "mc rm --recursive myminio/bucket/",
                "az storage account delete -n account --yes",
            ],
            DENY,
        ),
        *each(
            g,
            [
                "aws s3 ls s3://bucket",
                "aws s3 cp file s3://bucket/key",
                "aws s3 rm s3://bucket --recursive --dryrun",
                "aws --profile prod s3api get-object --bucket b --key k out",
                "aws ec2 describe-instances",
                "aws rds describe-db-instances",
                "aws dynamodb describe-table --table-name orders",
                "gcloud storage buckets list",
                "az storage blob list -c c",
                "azcopy sync ./a https://x.blob.core.windows.net/c --delete-destination=false",
                "azcopy copy ./a https://x.blob.core.windows.net/c",
                "gsutil ls gs://bucket",
                "mc ls myminio/bucket",
                "mc -C /cfg cp file myminio/bucket/",
            ],
            ALLOW,
        ),
        *each(g, ["aws s3 sync ./site s3://bucket --delete --dryrun"], ALLOW, _SYNC),
    ]


def _backups() -> list[Case]:
    g = "backups"
    return [
        *each(
            g,
            [
                "restic forget latest",
                "restic -r /srv/repo forget --keep-last 1 --prune",
                'restic -o s3.bucket="my bucket" forget',
                "borg delete repo::archive",
                "borg prune --keep-last 1",
                "rclone purge remote:bucket",
                "velero backup delete nightly --confirm",
                "velero -n velero backup delete nightly",
                "borg -r /srv/repo delete ::archive",
            ],
            DENY,
        ),
        *each(
            g,
            [
                "restic prune",
                "restic unlock --remove-all",
                "borg delete --cache-only",
                "borg compact repo",
                "rclone delete remote:bucket/path",
                "rclone move /src remote:bucket",
                "velero schedule delete nightly",
            ],
            ASK,
        ),
        *each(g, ["rclone sync /src remote:bucket"], ASK, _SYNC),
        *each(
            g,
            [
                "restic snapshots",
                "restic -r /srv/repo backup /srv/app",
                "restic forget --keep-last 1 --dry-run",
                "restic forget -n --keep-last 1 --prune",
                "borg list ::",
                "borg create repo::archive /srv/app",
                "rclone copy /src remote:bucket",
                "velero backup get",
                "velero backup create nightly",
            ],
            ALLOW,
        ),
        *each(
            g, ["rclone sync /src remote:bucket --dry-run", "rclone sync -n a: b:"], ALLOW, _SYNC
        ),
    ]


def _databases() -> list[Case]:
    g = "databases"
    return [
        *each(
            g,
            [
                "DROP DATABASE mydb;",
                "drop table users",
                'psql -c "DROP DATABASE production;"',
                "psql -h db -U admin --command='drop table users'",
                "mysql -u root -e 'DROP DATABASE shop'",
                "dropdb production",
                "mysqladmin -u root drop testdb",
                "redis-cli FLUSHALL",
                "redis-cli -h cache -n 2 flushdb",
            ],
            DENY,
        ),
        *each(
            g,
            [
                "DELETE FROM users;",
                "TRUNCATE TABLE sessions;",
                "aws rds delete-db-parameter-group --db-parameter-group-name p",
                "truncate table orders",
                'psql -c "DELETE FROM audit_log;"',
                "GRANT ALL ON *.* TO 'admin'@'%';",
            ],
            ASK,
        ),
        *each(
            g,
            [
                "DELETE FROM users WHERE id = 1;",
                "GRANT SELECT ON *.* TO 'readonly'@'%';",
                'psql -c "SELECT * FROM users LIMIT 10;"',
                "psql -d app -f migrations/001.sql",
                "mysql -u root -e 'SHOW DATABASES'",
                "mysqladmin -u root status",
                "redis-cli -h cache GET session:1",
                "createdb test",
            ],
            ALLOW,
        ),
    ]


def _machine() -> list[Case]:
    g = "disks and the machine"
    return [
        *each(
            g,
            [
                "wipefs --all disk.img",
                "wipefs -a /dev/sdb",
                "wipefs -o 0x438 /dev/sdb1",
                "mdadm --zero-superblock /dev/sda1",
                "mdadm -C /dev/md0 -l 1 -n 2 /dev/sda1 /dev/sdb1",
                "lvremove /dev/vg/lv",
                "vgremove vg",
                "btrfs subvolume delete /mnt/data/snap",
            ],
            DENY,
        ),
        *each(
            g,
            [
                "mdadm --stop /dev/md0",
                "dmsetup remove_all",
                "shutdown -h now",
                "reboot",
                "systemctl stop nginx",
                "service haproxy stop",
                "nginx -s stop",
                "chmod 0777 /etc",
                "rm /etc/nginx/nginx.conf",
                "rm -f /etc/haproxy/haproxy.cfg",
            ],
            ASK,
        ),
        *each(
            g,
            [
                "wipefs /dev/sdb",
                "wipefs --all --no-act /dev/sdb",
                "mdadm --detail /dev/md0",
                "dmsetup ls",
                "btrfs subvolume list /mnt/data",
                "systemctl status nginx",
                "service haproxy status",
                "nginx -s reload",
                "nginx -t",
                "chmod 644 notes.txt",
                "rm notes.txt",
            ],
            ALLOW,
        ),
    ]


def _remote() -> list[Case]:
    g = "remote machines"
    return [
        *each(
            g,
            [
                "scp -r ./data user@host:/",
                "scp config.conf user@host:/etc/",
                "scp -P 2222 app user@host:/usr/local/bin/",
                "ssh-keygen -R hostname",
                "ssh-add -D",
            ],
            ASK,
        ),
        *each(
            g,
            [
                "scp user@host:/etc/hosts .",
                "scp file.txt user@host:/tmp/",
                "scp -r ./project user@host:/home/user/projects/",
                "ssh-add -l",
                "ssh-keygen -l",
            ],
            ALLOW,
        ),
    ]


def _forges() -> list[Case]:
    g = "code hosting and CI"
    return [
        *each(
            g,
            [
                "gh repo delete owner/repo --yes",
                "gh -R owner/repo repo delete",
                "glab repo delete my/group",
            ],
            DENY,
        ),
        *each(
            g,
            [
                "gh secret delete TOKEN",
                "gh -R owner/repo secret remove TOKEN",
                "gh release delete v1.0",
                "gh api -X DELETE /repos/o/r/hooks/1",
                "gh api --method=DELETE repos/o/r",
                "gh repo archive owner/repo",
                "glab api --method DELETE projects/1",
                "circleci context delete org/o context/prod",
                "java -jar jenkins-cli.jar -s http://ci/ delete-job deploy",
            ],
            ASK,
        ),
        *each(
            g,
            [
                "gh repo view",
                "gh -R owner/repo secret list",
                "gh release view v1.0",
                "gh api repos/o/r",
                "gh api -X GET repos/o/r/hooks",
                "glab api -X GET projects/1",
                "circleci context list org/o",
                "java -jar jenkins-cli.jar -s http://ci/ list-jobs",
            ],
            ALLOW,
        ),
    ]


def _web_apis() -> list[Case]:
    g = "web APIs"
    return [
        *each(
            g,
            [
                "curl -X DELETE https://api.example.com/v1/customers/1",
                "curl --request DELETE https://api.example.com/v1/customers/1",
                "curl -XDELETE localhost:9200/index",
                "curl localhost:8001/services/s -X DELETE",
                "curl -X POST localhost:9200/logs/_delete_by_query -d '{}'",
                "curl -X POST http://ci/job/deploy/doDelete",
                "http DELETE :9200/my-index",
                "http --auth user:pass DELETE :9200/my-index",
                "https DELETE example.org/items/1",
            ],
            ASK,
        ),
        *each(
            g,
            [
                "curl https://api.example.com/v1/customers/1",
                "curl -X GET localhost:9200/_cluster/health",
                "curl -X POST localhost:7700/indexes/products/search -d '{}'",
                "curl -X PUT localhost:9200/index -d '{}'",
                "echo localhost:8001/services/s -X DELETE",
                "http GET :9200/_cat/indices",
                "https --auth user:pass example.org/items/1",
            ],
            ALLOW,
        ),
    ]


def _services() -> list[Case]:
    g = "services"
    return [
        *each(
            g,
            [
                "vault secrets disable secret/",
                "vault --namespace admin secrets disable kv/",
                "vault kv destroy -versions=1 secret/app",
                "rabbitmqctl reset",
                "rabbitmqctl -n rabbit@node2 force_reset",
            ],
            DENY,
        ),
        *each(
            g,
            [
                "vault kv delete secret/app",
                "kafka-topics --bootstrap-server k:9092 --delete --topic orders",
                "nats stream rm ORDERS",
                "rabbitmqctl delete_vhost /prod",
                "doppler secrets delete API_KEY --yes",
                "op item delete 'Database Password'",
                "stripe customers delete cus_1",
                "docker rm -f web",
                "docker rmi --force image",
                "docker image prune",
                "npm publish",
                "pip uninstall requests",
                "docker stop traefik",
                "docker kill traefik-proxy",
                "docker container rm -v traefik",
                "echo 'disable server backend/web1' | socat stdio /var/run/haproxy.sock",
                "socat - UNIX-CONNECT:/run/haproxy/admin.sock",
            ],
            ASK,
        ),
        *each(
            g,
            [
                "vault -namespace=admin status",
                "vault kv get secret/app",
                "kafka-topics --bootstrap-server k:9092 --list",
                "nats stream ls",
                "rabbitmqctl status",
                "doppler secrets get API_KEY",
                "op item get 'Database Password'",
                "stripe customers list",
                "docker rm web",
                "docker rmi image",
                "npm pack",
                "pip install requests",
                "docker inspect traefik",
                "docker logs traefik",
                "docker stop web",
                "socat stdio /var/run/app.sock",
            ],
            ALLOW,
        ),
    ]


def service_cases() -> list[Case]:
    return [
        *_cloud(),
        *_backups(),
        *_databases(),
        *_machine(),
        *_remote(),
        *_forges(),
        *_web_apis(),
        *_services(),
    ]


SERVICE_CASES: list[Case] = service_cases()
