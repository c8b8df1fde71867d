from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clearance.audit.command_redaction import redact_command

R = "[redacted]"


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # assignments before the command word
        ("API_KEY=sk-123 curl https://x", f"API_KEY={R} curl https://x"),
        ('KEY="sk 1 2" curl x', f"KEY={R} curl x"),
        ("FOO=1 TOKEN=$(cat f) make", f"FOO=1 TOKEN={R} make"),
        (
            "PATH=/bin:$PATH GH_TOKEN=g gh auth status",
            f"PATH=/bin:$PATH GH_TOKEN={R} gh auth status",
        ),
        ("A_SECRET+=more cmd", f"A_SECRET+={R} cmd"),
        ("PASSWORD=x", f"PASSWORD={R}"),
        # declaration builtins, env, sudo, transparent wrappers
        ('export GH_TOKEN="abc"', f"export GH_TOKEN={R}"),
        ("export -n X=1 NPM_TOKEN=n", f"export -n X=1 NPM_TOKEN={R}"),
        ("declare -x DB_PASSWORD='p w'", f"declare -x DB_PASSWORD={R}"),
        ("local api_key=$1", f"local api_key={R}"),
        ("env MY_SECRET=x cmd", f"env MY_SECRET={R} cmd"),
        (
            "env -i -u HOME OPENAI_API_KEY=o python app.py",
            f"env -i -u HOME OPENAI_API_KEY={R} python app.py",
        ),
        ("sudo -u root API_KEY=z ./x", f"sudo -u root API_KEY={R} ./x"),
        ("sudo env TOKEN=t ./x", f"sudo env TOKEN={R} ./x"),
        ("nohup env TOKEN=t ./x", f"nohup env TOKEN={R} ./x"),
        # every command of a list, pipeline, substitution, subshell, heredoc
        ("a && PASSWORD=x b | SECRET='y z' c", f"a && PASSWORD={R} b | SECRET={R} c"),
        ("true; (TOKEN=1 sub) & wait", f"true; (TOKEN={R} sub) & wait"),
        ("echo $(API_KEY=1 foo) done", f"echo $(API_KEY={R} foo) done"),
        ('echo "$(API_KEY=1 foo)"', f'echo "$(API_KEY={R} foo)"'),
        ("echo `TOKEN=1 foo`", f"echo `TOKEN={R} foo`"),
        ("if true; then TOKEN=1 run; fi", f"if true; then TOKEN={R} run; fi"),
        (
            "cat > .env <<EOF\nAPI_KEY=sk\nit's fine\nEOF\nTOKEN=3 ls",
            f"cat > .env <<EOF\nAPI_KEY={R}\nit's fine\nEOF\nTOKEN={R} ls",
        ),
        ("x 2>/dev/null; TOKEN=2 y", f"x 2>/dev/null; TOKEN={R} y"),
        ("# TOKEN=1 in a comment\nls", "# TOKEN=1 in a comment\nls"),
        # HTTP headers in any argument
        ('curl -H "Authorization: Bearer x" https://a', f'curl -H "Authorization:{R}" https://a'),
        ("curl -H 'authorization: token ghp_1' u", f"curl -H 'authorization:{R}' u"),
        ("curl --header 'X-Api-Key: sk' u", f"curl --header 'X-Api-Key:{R}' u"),
        ('curl --header="Cookie: sid=1; a=b" u', f'curl --header="Cookie:{R}" u'),
        ("curl -HAuthorization:x u", f"curl -HAuthorization:{R} u"),
        ("http :8080/api X-Api-Key:sk", f"http :8080/api X-Api-Key:{R}"),
        ("http u Authorization:'Bearer x'", f"http u Authorization:{R}"),
        ('curl -H "Authorization: Bearer "$TOKEN u', f'curl -H "Authorization:{R}" u'),
        (
            'git -c http.extraHeader="Authorization: Basic eDp5" clone u',
            f'git -c http.extraHeader="Authorization:{R}" clone u',
        ),
        ('wget --header "Private-Token: p" u', f'wget --header "Private-Token:{R}" u'),
        # not masked
        ("tool --my-key=abc", "tool --my-key=abc"),
        ("sort --key 2 file", "sort --key 2 file"),
        ('grep -r "sk-live-123" .', 'grep -r "sk-live-123" .'),
        (
            "python3 -c \"import os; key='x'; print(key)\"",
            "python3 -c \"import os; key='x'; print(key)\"",
        ),
        ("make API_KEY=x", "make API_KEY=x"),
        ("curl -H 'Accept: application/json' u", "curl -H 'Accept: application/json' u"),
        ("curl -H 'Authorization:' u", "curl -H 'Authorization:' u"),
        ("echo monkey=1 MONKEY=2", "echo monkey=1 MONKEY=2"),
        ("KEYBOARD=us loadkeys", "KEYBOARD=us loadkeys"),
        ("git log --format=%H:%s", "git log --format=%H:%s"),
        ("ls -la", "ls -la"),
        ("", ""),
    ],
)
def test_a_command_is_redacted_as_the_table_says(command: str, expected: str) -> None:
    assert redact_command(command) == expected


@given(st.text(alphabet=" =:'\"$()`\\;&|<>\n#-HATOKENabc", max_size=40))
def test_any_text_at_all_is_scanned_without_error(command: str) -> None:
    assert isinstance(redact_command(command), str)


@given(st.text(alphabet=" ='\"$()`\\;&|<>\nabcdef-", max_size=40))
def test_text_with_no_sensitive_name_comes_back_unchanged(command: str) -> None:
    assert redact_command(command) == command


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (
            "git clone https://user:tok123@github.com/x.git",
            "git clone https://user:[redacted]@github.com/x.git",
        ),
        ("curl -u bob:hunter2 https://x", "curl -u bob:[redacted] https://x"),
        ("curl --user 'bob:hunter2' x", "curl --user 'bob:[redacted]' x"),
        ("curl --user=bob:pw x", "curl --user=bob:[redacted] x"),
        ("curl https://example.com/a@b", "curl https://example.com/a@b"),
        ("ssh git@github.com", "ssh git@github.com"),
        ("echo http://host:8080/x", "echo http://host:8080/x"),
    ],
)
def test_credentials_in_urls_and_user_options_are_redacted(command: str, expected: str) -> None:
    assert redact_command(command) == expected
