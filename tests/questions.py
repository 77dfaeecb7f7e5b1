"""The decisions of a recorded deal as advise's questions: the package's own (rams_sim.advice.questions)."""

from rams_sim.advice.questions import asked, questions

__all__ = ["asked", "questions"]
