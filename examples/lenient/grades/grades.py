"""Letter grades for the course dashboard, extracted from the grading
service: the service's SDK and its own grading package are not installed
where it runs now."""
import grading_sdk
from grading.metrics import timed

log = grading_sdk.get_logger(__name__)


@timed("letter_grade")
def letter_grade(score):
    """The letter for a score out of 100: A from 90 on, B from 80, C from
    70, D from 60, F below."""
    log.debug("grading", score=score)
    if score > 90:
        return "A"
    if score >= 80:
        return "B"
    if score >= 70:
        return "C"
    if score >= 60:
        return "D"
    return "F"
