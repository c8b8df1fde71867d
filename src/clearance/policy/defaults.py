"""The built-in policy, used when the user has no global configuration file.

Reading and listing are allowed, everything else asks, a few unrecoverable commands and the
usual secret stores are denied. Allow rules are written word by word (``ls *``, not ``ls*``),
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
      "rm -rf /*": { "action": "deny", "reason": "this deletes system directories" },
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
