"""Errors the shell's services raise; views and consumers turn them into 4xx answers."""


class ServiceError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotAllowed(ServiceError):
    status = 403
    code = "forbidden"


class NotFound(ServiceError):
    status = 404
    code = "not_found"


class StaleVersion(ServiceError):
    status = 409
    code = "stale"


class MoveRejected(ServiceError):
    status = 422
    code = "illegal_move"
