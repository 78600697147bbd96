from django.urls import path

from decks import views

# The JSON endpoints (decks/api/...) are in decks/api.py, part of the typed site API.
urlpatterns = [
    path("", views.deck_list, name="deck_list"),
    path("new/", views.deck_create, name="deck_create"),
    path("<int:pk>/", views.deck_builder, name="deck_builder"),
    path("<int:pk>/rename/", views.deck_rename, name="deck_rename"),
    path("<int:pk>/try/", views.deck_try, name="deck_try"),
    path("<int:pk>/clone/", views.deck_clone, name="deck_clone"),
    path("<int:pk>/delete/", views.deck_delete, name="deck_delete"),
    path("<int:pk>/share/", views.deck_share, name="deck_share"),
    path("<int:pk>/list/", views.deck_public, name="deck_public"),
    path("<int:pk>/versions/", views.deck_versions, name="deck_versions"),
    path("<int:pk>/versions/<int:number>/restore/", views.deck_version_restore, name="deck_version_restore"),
    path("<int:pk>/export.txt", views.deck_export, name="deck_export"),
    path("<int:pk>/import/", views.deck_import, name="deck_import"),
    path("cards/", views.card_search, name="card_search"),
    path("cards/<slug:code>/", views.card_detail, name="card_detail"),
    path("cards/<slug:code>/face.svg", views.card_face, name="card_face"),
    path("cards/<slug:code>/image/", views.card_image, name="card_image"),
    path("collection/", views.collection, name="collection"),
    path("write/", views.wyo_write, name="wyo_write"),
    path("write/<slug:code>/submit/", views.wyo_submit, name="wyo_submit"),
]
