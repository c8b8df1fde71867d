"""The built-in policy, used when the user has no global configuration file.

Reading and listing are allowed, everything else asks, a few unrecoverable commands and the
usual secret stores are denied. The destruction denies name exactly what they reach (``/``,
``/*`` typed as such, each top-level system directory), never a prefix of every absolute path,
so ``rm -rf build`` — whose absolute spelling is ``rm -rf /work/proj/build`` — is not "a system
directory". Allow rules are written word by word (``ls *``, not ``ls*``),
so ``ls`` does not allow ``lsof`` and ``git status`` does not allow ``git status-x``. It is
written in the same format as a user's file, so ``clearance explain`` can point at its lines
(``builtin:LINE:COL``).
"""

from __future__ import annotations

__all__ = ["BUILTIN_FILE", "BUILTIN_POLICY"]

BUILTIN_FILE = "builtin"

BUILTIN_POLICY = """{
  "permission": {
    "*": "ask",
    "read": "allow",
    "grep": "allow",
    "find": "allow",
    "ls": "allow",
    "bash": {
      "*": "ask",
      "git status *": "allow",
      "git diff *": "allow",
      "git log *": "allow",
      "git show *": "allow",
      "git branch": "allow",
      "ls *": "allow",
      "pwd": "allow",
      "cat *": "allow",
      "head *": "allow",
      "tail *": "allow",
      "wc *": "allow",
      "grep *": "allow",
      "rg *": "allow",
      "echo *": "allow",
      "which *": "allow",
      "git push --force*": { "action": "ask", "reason": "a force-push rewrites shared history" },
      "git push -f*": { "action": "ask", "reason": "a force-push rewrites shared history" },
      "rm -rf /": { "action": "deny", "reason": "this deletes the whole filesystem" },
      "rm -rf /?": { "action": "deny", "reason": "this deletes the whole filesystem" },
      "rm -rf /bin": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /bin/": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /boot": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /boot/": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /dev": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /dev/": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /etc": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /etc/": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /home": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /home/": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /lib": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /lib/": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /lib64": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /lib64/": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /opt": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /opt/": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /proc": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /proc/": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /root": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /root/": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /sbin": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /sbin/": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /srv": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /srv/": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /sys": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /sys/": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /usr": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /usr/": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /var": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf /var/": { "action": "deny", "reason": "this deletes a system directory" },
      "rm -rf ~": { "action": "deny", "reason": "this deletes your home directory" },
      "rm -rf ~/": { "action": "deny", "reason": "this deletes your home directory" },
      "mkfs *": { "action": "deny", "reason": "this formats a disk" },
      "mkfs.*": { "action": "deny", "reason": "this formats a disk" }
    },
    "path": {
      "*.env": "ask",
      "*.env.*": "ask",
      "*.env.example": "allow",
      "~/.ssh/*": { "action": "deny", "reason": "SSH keys stay private" },
      "~/.aws/credentials": { "action": "deny", "reason": "cloud credentials stay private" },
      "~/.gnupg/*": { "action": "deny", "reason": "GnuPG keys stay private" }
    },
    "external_directory": "ask"
  }
}
"""
