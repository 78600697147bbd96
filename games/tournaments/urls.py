from django.urls import path

from games.tournaments import views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournament_list"),
    path("tournaments/new/", views.tournament_new, name="tournament_new"),
    path("tournaments/<int:tournament_id>/", views.tournament_detail, name="tournament_detail"),
    path("tournaments/<int:tournament_id>/<str:action>/", views.tournament_action, name="tournament_action"),
    path("ladders/", views.ladder_list, name="ladder_list"),
    path("ladders/<slug:kind>/", views.ladder_detail, name="ladder_detail"),
    path("ladders/<slug:kind>/<str:action>/", views.ladder_action, name="ladder_action"),
]
