"""What makes an answer trustworthy (issue 23).

``parts`` finds an answer's checkable parts; ``seen`` keeps the text this session saw;
``pages`` names CAPTCHA, login, error and blocked pages; ``grounding`` relates the parts to
the text; ``verifier`` asks an independent model; ``gate`` is the one call the loop makes
when an answer arrives. ``evidence_judge`` and ``references`` work on finished runs.
"""
